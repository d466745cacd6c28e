/// Where a stack's layout comes from when a `stack.layoutObserved` set it, and what that
/// leaves assumed (`docs/events.md`, "Observed layouts").
struct StackLayoutSource: Hashable {
    /// The observation that last set the stack's members (0: explicit events built it).
    var seq: UInt64 = 0
    /// The observation's time; before it, the stack is assumed (`LAYOUT_ASSUMED`).
    var time: Int64 = .min
    /// Whether the stack exists only by assumption: no explicit event or earlier
    /// observation defines it before the observation's time.
    var assumed = false
    /// Whether the observation was inferred from on-screen records, not a layout file.
    var inferred = false
    /// Whether the observation's time comes from a file time the extraction does not keep
    /// exactly (`LAYOUT_TIME_UNCERTAIN`).
    var timeUncertain = false
    /// Whether the stack's top before the observation's time is the member it records as
    /// the person's selection (`TOP_ASSUMED`).
    var topAssumed = false
    /// The switches the observation did not record (`SETTINGS_ASSUMED`): Smart Rotate,
    /// Widget Suggestions.
    var unrecordedSwitches: [String] = []
    /// When the observation contradicted a stack built by explicit events: that stack's
    /// `stack.created` (or first event) and the observation (`LAYOUT_CONFLICT`).
    var conflict: [UInt64] = []
    /// What the contradiction was.
    var conflictDetail = ""

    /// Whether no observation set the stack.
    var isExplicit: Bool { seq == 0 }
}

extension StackState {
    /// What an answer about this stack at `now` rests on that the log does not record for
    /// that instant.
    func assumptions(at now: Int64, clock: inout LocalClock) -> [Assumption] {
        let source = observedLayout
        guard !source.isExplicit else { return [] }
        var out = [Assumption]()
        if source.assumed && now < source.time {
            out.append(
                Assumption(
                    .layoutAssumed, stack: id, events: [source.seq],
                    detail:
                        "no event before \(clock.dateTimeText(source.time)) defines \(id); its layout is taken from the one the device recorded then"
                ))
        }
        if source.inferred {
            out.append(
                Assumption(
                    .layoutInferred, stack: id, events: [source.seq],
                    detail:
                        "the layout of \(id) was inferred from the device's on-screen records, not read from a layout file"
                ))
        }
        if source.timeUncertain {
            out.append(
                Assumption(
                    .layoutTimeUncertain, stack: id, events: [source.seq],
                    detail:
                        "the layout's time, \(clock.dateTimeText(source.time)), is the file time an archive gave its member, not a time the device recorded (a zip's is in two-second steps, in an unknown time zone)"
                ))
        }
        if source.assumed && source.topAssumed && now < source.time && topDecision == nil, let top {
            out.append(
                Assumption(
                    .topAssumed, stack: id, instance: top, events: [source.seq],
                    detail:
                        "the top of \(id) is taken to be \(top), the member the layout recorded at \(clock.dateTimeText(source.time)) names as the person's selection"
                ))
        }
        if !source.conflict.isEmpty && now >= source.time {
            out.append(Assumption(.layoutConflict, stack: id, events: source.conflict, detail: source.conflictDetail))
        }
        if !source.unrecordedSwitches.isEmpty {
            out.append(
                Assumption(
                    .settingsAssumed, stack: id, events: [source.seq],
                    detail:
                        "the layout record of \(id) does not hold \(source.unrecordedSwitches.joined(separator: " or ")); the earlier or default value is kept"
                ))
        }
        return out
    }
}
