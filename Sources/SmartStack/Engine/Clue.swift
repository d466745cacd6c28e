import RecordFormat

/// A RelevanceKit context or a relevance provider, as the engine matches it.
enum Clue: Hashable {
    /// A date window `[from, to)`, with its `DateKind`.
    case window(from: Int64, to: Int64, dateKind: String?)
    /// A state of the person's context (place, workout, sleep, headphones), matched
    /// against the active `context.changed` states by canonical form; `permission` is
    /// the authorisation it needs (W3, G4), if any.
    case state(key: String, permission: String?)

    /// The clue of a RelevantContext.
    static func of(_ context: RelevantContext, policy parameters: PolicyParameters) -> Clue? {
        switch context {
        case .date(let d):
            if let at = d.at {
                return .window(
                    from: at.microseconds - Int64(parameters.dateClueLeadMinutes) * 60_000_000,
                    to: at.microseconds + Int64(parameters.dateClueLagMinutes) * 60_000_000, dateKind: d.kind)
            }
            return .window(from: d.from?.microseconds ?? .min, to: d.to?.microseconds ?? .max, dateKind: d.kind)
        case .location:
            return .state(key: Clue.key(context), permission: "locationForWidgets")
        case .fitness(let f):
            return .state(key: Clue.key(context), permission: f == "workoutActive" ? "workout" : "activityRings")
        case .sleep:
            return .state(key: Clue.key(context), permission: "sleep")
        case .headphones:
            return .state(key: Clue.key(context), permission: nil)
        case .deviceState:
            return nil
        }
    }

    /// The clue of a relevance provider.
    static func of(_ provider: RelevanceProvider) -> Clue {
        switch provider {
        case .date(let start, let end):
            return .window(from: start.microseconds, to: end?.microseconds ?? .max, dateKind: nil)
        case .location(let region):
            return .state(key: Clue.key(.location(.region(region))), permission: "locationForWidgets")
        case .dailyRoutine(let situation):
            return .state(key: Clue.routineKey(situation), permission: Clue.routinePermission(situation))
        }
    }

    /// The canonical JSON of a context: the key its active state is kept under.
    static func key(_ context: RelevantContext) -> String {
        var w = CanonicalWriter(capacity: 64)
        context.write(&w)
        return w.text
    }

    /// The context state a daily-routine situation corresponds to.
    static func routineKey(_ situation: String) -> String {
        switch situation {
        case "home", "work", "school", "commute": return key(.location(.inferred(situation)))
        case "headphonesConnected": return key(.headphones("connected"))
        case "activeWorkout": return key(.fitness("workoutActive"))
        case "physicalActivityIncomplete": return key(.fitness("activityRingsIncomplete"))
        case "morning": return key(.sleep("wakeup"))
        case "evening": return key(.sleep("bedtime"))
        default: return "{\"dailyRoutine\":\"\(situation)\"}"
        }
    }

    static func routinePermission(_ situation: String) -> String? {
        switch situation {
        case "home", "work", "school", "gym": return "locationForWidgets"
        default: return nil
        }
    }

    /// The provider type name used by `suggestionProviders`.
    static func providerType(_ provider: RelevanceProvider) -> String {
        switch provider {
        case .date: return "date"
        case .location: return "location"
        case .dailyRoutine: return "dailyRoutine"
        }
    }

    /// The instants at which this clue starts or stops matching by itself.
    var boundaries: [Int64] {
        if case .window(let from, let to, _) = self { return [from, to].filter { $0 != .min && $0 != .max } }
        return []
    }

    /// The first instant after `now` at which this clue starts or stops matching by
    /// itself, or `.max`.
    func nextBoundary(after now: Int64) -> Int64 {
        guard case .window(let from, let to, _) = self else { return .max }
        var next = Int64.max
        if from > now { next = from }
        if to > now { next = min(next, to) }
        return next
    }
}
