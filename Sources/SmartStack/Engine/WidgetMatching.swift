/// How the device's records name a widget, and the rule that finds it among the widgets the
/// model holds (`docs/events.md`, "Matching the device's names to widgets").
public struct RecordedWidgetName: Hashable, Sendable {
    /// The instance id, when the record holds one.
    public var instance: String?
    /// The bundle ids the record holds: the widget extension's, the app's, or both.
    public var bundles: [String]
    /// The kind, possibly cut short (PowerLog writes `eather` for `com.apple.weather`).
    public var kind: String?

    public init(instance: String?, bundle: String?, kind: String?) {
        self.init(instance: instance, bundles: bundle.map { [$0] } ?? [], kind: kind)
    }

    public init(instance: String?, bundles: [String], kind: String?) {
        self.instance = instance
        self.bundles = bundles
        self.kind = kind
    }
}

/// A widget the model holds, as matching sees it.
public struct MatchCandidate: Hashable, Sendable {
    public var instance: String
    public var app: String
    public var extensionBundle: String?
    public var kind: String

    public init(instance: String, app: String, extensionBundle: String?, kind: String) {
        self.instance = instance
        self.app = app
        self.extensionBundle = extensionBundle
        self.kind = kind
    }
}

/// What matching found.
public enum WidgetMatch: Hashable, Sendable {
    /// One candidate, and how it was found.
    case matched(Int, by: MatchBasis)
    /// No candidate fits.
    case none
    /// More than one fits: never guessed.
    case ambiguous

    /// The matched candidate's index.
    public var index: Int? {
        if case .matched(let i, _) = self { return i }
        return nil
    }

    /// How the match was made, when one was.
    public var basis: MatchBasis? {
        if case .matched(_, let by) = self { return by }
        return nil
    }
}

/// How a record was matched, as reports count it.
public enum MatchBasis: String, Hashable, Sendable, CaseIterable {
    /// By the instance id.
    case instance
    /// By bundle id and exact kind (or the bundle id alone when the record has no kind).
    case bundleAndKind = "extension-and-kind"
    /// By a kind cut short that ends exactly one candidate's kind.
    case kindSuffix = "kind-suffix"

    /// How a report names it.
    public var text: String {
        switch self {
        case .instance: "by instance id"
        case .bundleAndKind: "by extension or app and kind"
        case .kindSuffix: "by a cut kind"
        }
    }
}

extension RecordedWidgetName {
    /// The shortest cut kind that may match by suffix.
    public static let minimumSuffix = 4

    /// Finds the one candidate this name denotes, by the documented order: the instance;
    /// else the bundle id against each candidate's extension, then its app; then the kind,
    /// exact first, else a cut kind that ends exactly one candidate's kind.
    public func match(in candidates: [MatchCandidate]) -> WidgetMatch {
        if let instance {
            let found = candidates.indices.filter { candidates[$0].instance == instance }
            if found.count == 1 { return .matched(found[0], by: .instance) }
            if found.count > 1 { return .ambiguous }
            if bundles.isEmpty && kind == nil { return .none }
        }
        var pool = Array(candidates.indices)
        if !bundles.isEmpty {
            let byExtension = pool.filter { i in bundles.contains { candidates[i].extensionBundle == $0 } }
            pool = byExtension.isEmpty ? pool.filter { i in bundles.contains { candidates[i].app == $0 } } : byExtension
            if pool.isEmpty { return .none }
        }
        guard let kind else {
            if !bundles.isEmpty && pool.count == 1 { return .matched(pool[0], by: .bundleAndKind) }
            return pool.isEmpty ? .none : .ambiguous
        }
        let exact = pool.filter { candidates[$0].kind == kind }
        if exact.count == 1 { return .matched(exact[0], by: .bundleAndKind) }
        if exact.count > 1 { return .ambiguous }
        guard kind.count >= Self.minimumSuffix else { return .none }
        let suffixed = pool.filter { candidates[$0].kind.hasSuffix(kind) }
        if suffixed.count == 1 { return .matched(suffixed[0], by: .kindSuffix) }
        return suffixed.isEmpty ? .none : .ambiguous
    }
}
