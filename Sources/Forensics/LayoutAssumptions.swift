import RecordFormat
import SmartStack

/// The assumptions an observed layout brings into the answers that rest on it, read from
/// the layout alone and the stacks explicit events created before it (docs/events.md,
/// "Observed layouts"): a stack that neither a `stack.created` nor an earlier layout
/// defines is assumed before the layout's time (`LAYOUT_ASSUMED`, and `TOP_ASSUMED` where
/// it records a selection); an inferred layout, a file time the extraction does not keep
/// exactly, and switches it does not hold are assumed from it on.
struct LayoutAssumptions {
    /// The first `stack.created` of each stack, as (time, seq).
    private var creations: [String: (Int64, UInt64)] = [:]
    /// Stacks an earlier layout listed.
    private var listed = Set<String>()

    /// Notes a `stack.created` of `stack` at (time, seq); read before the layouts.
    mutating func created(_ stack: String, at position: (Int64, UInt64)) {
        if let known = creations[stack], known <= position { return }
        creations[stack] = position
    }

    /// The codes answers resting on `layout` can list; layouts come in time order.
    mutating func codes(of layout: LayoutObserved, event: Event, seq: UInt64) -> [String] {
        let position = (event.envelope.time.microseconds, seq)
        var codes = Set<AssumptionCode>()
        for observed in layout.stacks {
            let defined = listed.contains(observed.stack) || creations[observed.stack].map { $0 < position } ?? false
            if !defined {
                codes.insert(.layoutAssumed)
                if observed.selected != nil { codes.insert(.topAssumed) }
            }
            if !observed.unrecordedSwitches.isEmpty { codes.insert(.settingsAssumed) }
            listed.insert(observed.stack)
        }
        if !layout.isRecorded { codes.insert(.layoutInferred) }
        if DeviceEngine.timeUncertain(event) { codes.insert(.layoutTimeUncertain) }
        return codes.map(\.rawValue).sorted()
    }
}
