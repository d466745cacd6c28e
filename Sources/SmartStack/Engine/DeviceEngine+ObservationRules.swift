import RecordFormat

// What the system observed (docs/events.md, "What the system observed"): the device, the
// person's context, permissions, Developer Mode. One `apply` per event type.
extension DeviceEngine {
    /// `device.info`: the platform, OS version and time zone.
    mutating func apply(_ info: DeviceInfo, seq: UInt64) -> Work {
        state.platform = info.platform
        state.osVersion = info.osVersion
        state.deviceInfoSeq = seq
        state.clock.setZone(info.timeZone)
        return .all
    }

    /// `context.changed`: a context the person is in begins or ends.
    mutating func apply(_ change: ContextChanged, seq: UInt64) -> Work {
        let key = Clue.key(change.context)
        state.contexts[key] = change.active ? ActiveState(since: state.now, seq: seq) : nil
        return .all
    }

    /// `permission.changed`: an app's permission granted or withdrawn.
    mutating func apply(_ change: PermissionChanged, seq: UInt64, app: String) -> Work {
        state.permissions[app + "\u{1F}" + change.permission] = PermissionState(granted: change.granted, seq: seq)
        return .all
    }

    /// `developer.mode`: Developer Mode turned on or off.
    mutating func apply(_ mode: DeveloperMode, seq: UInt64) -> Work {
        state.developerMode = mode.enabled
        state.developerModeSeq = seq
        return .all
    }
}
