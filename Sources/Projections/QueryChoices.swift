import Ledger

/// The devices a question covers, chosen by one rule for the CLI and `serve`: the device
/// asked for, which the store must hold; else the store's only device; else, for a
/// question over every device, all of them. Each caller words the problem in its own terms
/// (`--device` and exit 64, or the `device` parameter and 400).
package enum DeviceChoice: Equatable {
    /// The devices chosen, the first being the one a single-device question answers about.
    case chosen([String])
    /// The device asked for has no events in the store, which holds `holds`.
    case unknown(String, holds: [String])
    /// The store holds no events.
    case empty
    /// The store holds several devices and none was asked for.
    case several([String])

    /// The choice for `asked` among the store's `devices` (sorted as `Projector.devices()`
    /// lists them); `allDevices`: without `asked`, the question covers every device.
    package static func of(_ asked: String?, among devices: [String], allDevices: Bool = false) -> DeviceChoice {
        if let asked {
            return devices.contains(asked) ? .chosen([asked]) : .unknown(asked, holds: devices)
        }
        if devices.isEmpty { return .empty }
        if devices.count == 1 || allDevices { return .chosen(devices) }
        return .several(devices)
    }
}

extension ProjectionQuery {
    /// The largest `without` sequence number past the store's last, which a what-if cannot
    /// leave out; nil when every one names a stored event.
    package func withoutPast(lastSeq: UInt64) -> UInt64? {
        guard let last = without.max(), last > lastSeq else { return nil }
        return last
    }
}
