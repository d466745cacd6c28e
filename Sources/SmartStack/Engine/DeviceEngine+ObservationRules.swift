import RecordFormat

extension DeviceEngine {
    /// Applies what the system observed (docs/events.md, "What the system observed"): the
    /// device, the person's context, permissions, Developer Mode; the device's own records
    /// of what was on screen change no decision.
    mutating func applyObservation(_ event: Event, seq: UInt64, app: String) -> Work {
        let now = state.now
        switch event.body {
        case .deviceInfo(let info):
            state.platform = info.platform
            state.osVersion = info.osVersion
            state.deviceInfoSeq = seq
            state.clock.setZone(info.timeZone)
        case .contextChanged(let c):
            let key = Clue.key(c.context)
            if c.active { state.contexts[key] = ActiveState(since: now, seq: seq) } else { state.contexts[key] = nil }
        case .permissionChanged(let c):
            state.permissions[app + "\u{1F}" + c.permission] = PermissionState(granted: c.granted, seq: seq)
        case .developerMode(let m):
            state.developerMode = m.enabled
            state.developerModeSeq = seq
        case .stackObserved:
            return .none
        default:
            return .none
        }
        return .all
    }
}
