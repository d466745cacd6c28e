import Ledger
import SmartStack

/// What PowerLog's WidgetStats rows can say about stacks when no layout file exists
/// (docs/importing.md, "Stacks inferred from PowerLog").
///
/// A stack shows one widget at a time. In-stack widgets of one size, location and page are
/// taken to be one stack only when the rows show them alternating: in every reporting
/// period at most one of them was on screen, and over all periods at least two were.
/// Widgets on screen together in one period cannot share a stack, and the rows do not say
/// which other widgets their stacks hold: then nothing is inferred, and the report says why.
struct PowerLogStackInference {
    /// One WidgetStats row of a widget in a stack.
    struct Row {
        var locator: Int64
        /// The end of the reporting period (the row's time), microseconds.
        var time: Int64
        var seconds: Double
        var bundle: String
        var kind: String
        var identifier: String?
        var size: Int64?
        var location: Int64?
        var page: Int64?
    }

    /// A stack the rows support.
    struct Stack {
        var id: String
        /// (identifier or bundle/kind, bundle, kind), in order of first appearance.
        var members: [(instance: String, bundle: String, kind: String)]
        var size: Int64?
        /// When the first on-screen period began, microseconds.
        var from: Int64
        var rows: [Int64]
    }

    var stacks: [Stack] = []
    /// Why the rows of a group support no stack, one line each.
    var notInferred: [String] = []

    init(rows: [Row]) {
        let groups = Dictionary(grouping: rows.filter { $0.seconds > 0 }) {
            "\($0.size.map(String.init) ?? "?")-\($0.location.map(String.init) ?? "?")-\($0.page.map(String.init) ?? "?")"
        }
        for key in groups.keys.sorted() {
            let group = groups[key]!.sorted { ($0.time, $0.locator) < ($1.time, $1.locator) }
            let widget = { (r: Row) in r.identifier ?? r.bundle + "/" + r.kind }
            let widgets = Set(group.map(widget))
            let place =
                "size \(group[0].size.map(String.init) ?? "unknown"), location \(group[0].location.map(String.init) ?? "unknown"), page \(group[0].page.map(String.init) ?? "unknown")"
            guard widgets.count >= 2 else {
                notInferred.append(
                    "no stack inferred for \(place): one in-stack widget; the rows do not name the stack's other members"
                )
                continue
            }
            let periods = Dictionary(grouping: group, by: \.time)
            if let together = periods.keys.sorted().first(where: { Set(periods[$0]!.map(widget)).count > 1 }) {
                let names = Set(periods[together]!.map { $0.kind }).sorted().joined(separator: ", ")
                notInferred.append(
                    "no stack inferred for \(place): \(names) were on screen in the same period (to \(Timestamp(microseconds: together).rfc3339)), so they are not one stack, and the rows do not say which other widgets their stacks hold"
                )
                continue
            }
            var members = [(instance: String, bundle: String, kind: String)]()
            for r in group where !members.contains(where: { $0.instance == widget(r) }) {
                members.append((widget(r), r.bundle, r.kind))
            }
            let first = group[0]
            stacks.append(
                Stack(
                    id: "inferred:powerlog:\(key)", members: members, size: first.size,
                    from: first.time - EventLimits.micros(first.seconds), rows: group.map(\.locator)))
        }
    }
}
