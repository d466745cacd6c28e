package import Ledger
import Projections
package import SmartStack

/// `state --json` as queries.md gives it: the instant, the device, whether the store passed
/// its check, the policy, the stacks and the assumptions. The CLI and `serve` write it alike.
package enum StateJSON {
    /// Writes one document (no newline).
    package static func write(
        _ w: inout CanonicalWriter, snapshot: DeviceSnapshot, at local: Timestamp, device: String, verified: Bool,
        damaged: [UInt64], ledger: Ledger, policy: Policy, tool: String
    ) throws {
        w.beginObject()
        w.key("at")
        w.time(local)
        w.key("device")
        w.string(device)
        w.key("verified")
        w.bool(verified)
        if !verified {
            w.key("unreadable")
            w.beginArray()
            for s in damaged { w.integer(Int(s)) }
            w.endArray()
        }
        try writeCheck(&w, ledger: ledger)
        ProjectionJSON.writeHeader(&w, policy: policy, tool: tool)
        w.key("stacks")
        ProjectionJSON.writeStacks(&w, snapshot.stacks)
        w.key("assumptions")
        ProjectionJSON.write(&w, snapshot.assumptions)
        w.endObject()
    }
}
