import Foundation
package import Ledger
import SmartStack

/// Resolves a device's local UTC offset: its `device.info` time zone when given, else
/// the offset the event was written with.
package struct LocalTime {
    private var zones: [String: TimeZone] = [:]

    /// Reads the newest `device.info` time zone of every device.
    package init(reader: LedgerReader) throws {
        for seq in try reader.seqs(indexKey: Event.deviceInfoKey) {
            try reader.withRecord(seq) { view in
                if case .deviceInfo(let info) = try Event(record: view).body,
                    let name = info.timeZone, let zone = TimeZone(identifier: name)
                {
                    zones[view.envelope.device] = zone
                }
            }
        }
    }

    /// The offset in minutes to show `time` at on `device`.
    package func offset(device: String, time: Timestamp) -> Int16 {
        guard let zone = zones[device] else { return time.offsetMinutes }
        let date = Date(timeIntervalSince1970: Double(time.microseconds) / 1_000_000)
        return Int16(zone.secondsFromGMT(for: date) / 60)
    }

    /// `2026-03-02 09:45:00 +01:00`: the time on the device's clock, with its offset.
    package func text(device: String, time: Timestamp) -> String {
        LocalTime.display(Timestamp(microseconds: time.microseconds, offsetMinutes: offset(device: device, time: time)))
    }

    /// `2026-03-02 09:45:00 +01:00`: a time in the offset it carries.
    package static func display(_ time: Timestamp) -> String {
        let s = time.rfc3339
        var out = s.replacingOccurrences(of: "T", with: " ")
        if out.hasSuffix("Z") {
            out = String(out.dropLast()) + " +00:00"
        } else if let idx = out.lastIndex(where: { $0 == "+" || $0 == "-" }),
            out.distance(from: idx, to: out.endIndex) == 6
        {
            out.insert(" ", at: idx)
        }
        return out
    }
}
