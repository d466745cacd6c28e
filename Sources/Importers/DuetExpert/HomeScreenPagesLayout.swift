import SmartStack

/// duetexpertd's copy of the home screen, `DuetExpertCenter/CachedHomeScreenConfig/
/// HomeScreenPages` (forensic-sources.md §10b): an NSKeyedArchiver archive of pages of
/// `ATXHomeScreenStackConfig` objects (`identifier`, `widgets`, `allowsSmartRotate`,
/// `allowsNewWidget`, `stackLayoutSize`, `coordinateRow`, `coordinateColumn`).
///
/// The keys of the objects in `widgets` are not among the names §10 establishes. They are
/// read by the names Apple's own code gives the same things in the Duet expert store's
/// tables (`widgetUniqueId`, `extensionBundleId`, `widgetKind`, `containerBundleIdentifier`)
/// or in IconState.plist's elements (`uniqueIdentifier`, `bundleIdentifier`,
/// `widgetIdentifier`); nothing else is taken for them.
extension HomeScreenLayout {
    /// The class of a stack's configuration.
    static let stackConfigClass = "ATXHomeScreenStackConfig"

    /// The keys a widget's instance, extension, kind and app are read from, in order.
    static let widgetKeys = (
        instance: ["widgetUniqueId", "uniqueIdentifier"],
        extensionBundle: ["extensionBundleId", "bundleIdentifier"],
        kind: ["widgetKind", "widgetIdentifier"],
        app: ["containerBundleIdentifier", "appBundleId"]
    )

    /// Reads a `HomeScreenPages` archive.
    init(homeScreenPages bytes: ArraySlice<UInt8>) throws(IconStateError) {
        let root: PlistValue
        do {
            root = try KeyedArchive.decode(bytes)
        } catch {
            throw IconStateError("\(error.message) (byte \(error.offset)); it is not an NSKeyedArchiver archive")
        }
        self.init()
        var configs = 0
        try collectStacks(root, place: "HomeScreenPages", depth: 0, configs: &configs)
        guard configs > 0 else {
            throw IconStateError(
                "holds no \(Self.stackConfigClass) (identifier, widgets, allowsSmartRotate); it is not duetexpertd's HomeScreenPages"
            )
        }
    }

    /// Finds every stack configuration in the archive's pages.
    private mutating func collectStacks(_ value: PlistValue, place: String, depth: Int, configs: inout Int)
        throws(IconStateError)
    {
        guard depth <= Self.maximumDepth else {
            throw IconStateError("its pages nest more than \(Self.maximumDepth) deep; it is malformed")
        }
        if let list = value.array {
            for (n, item) in list.enumerated() {
                try collectStacks(
                    item, place: depth == 0 ? "page \(n + 1)" : place, depth: depth + 1, configs: &configs)
            }
            return
        }
        guard case .dictionary(let members) = value else { return }
        if value["$class"]?.string == Self.stackConfigClass
            || (value["identifier"]?.string != nil && value["widgets"]?.array != nil)
        {
            configs += 1
            icons += 1
            readStackConfig(value, place: place)
            return
        }
        for (key, member) in members where key != "$class" {
            try collectStacks(member, place: place, depth: depth + 1, configs: &configs)
        }
    }

    /// One `ATXHomeScreenStackConfig`: a stack, or a pinned widget (both switches off and
    /// one widget).
    private mutating func readStackConfig(_ config: PlistValue, place: String) {
        guard let id = config["identifier"]?.string, !id.isEmpty else {
            problems.append("a stack configuration on \(place) has no identifier; it is not imported")
            return
        }
        let family: String
        switch config["stackLayoutSize"] {
        case .string(let size)?: family = Self.families[size] ?? size
        case .integer(let size)?:
            family = "stackLayoutSize:\(size)"
            notes.append(
                "stack \(id): stackLayoutSize \(size) names no size this version knows; its family is \(family)")
        default: family = "systemSmall"
        }
        var place = place
        if let row = config["coordinateRow"]?.integer, let column = config["coordinateColumn"]?.integer {
            place += ", row \(row), column \(column)"
        }
        var widgets = [Widget]()
        for widget in config["widgets"]?.array ?? [] {
            guard let read = Self.widget(widget, stack: id, family: family) else {
                problems.append(
                    "stack \(id) on \(place): a widget names no kind (widgetKind) or no app (containerBundleIdentifier); the stack is not imported"
                )
                return
            }
            widgets.append(read)
        }
        let smartRotate = Self.bool(config["allowsSmartRotate"])
        let widgetSuggestions = Self.bool(config["allowsNewWidget"])
        if smartRotate == false && widgetSuggestions == false && widgets.count == 1 {
            self.widgets.append(widgets[0])
            return
        }
        stacks.append(
            Stack(
                id: id, family: family, members: widgets, smartRotate: smartRotate,
                widgetSuggestions: widgetSuggestions, selected: nil, place: place))
    }

    /// A widget of a stack configuration; nil when its kind or app is not recorded. One
    /// without an instance id is named `hsp:<stack>/<extension or app>/<kind>`, which the
    /// matching rule (docs/events.md) matches to the member with that extension and kind.
    private static func widget(_ value: PlistValue, stack: String, family: String) -> Widget? {
        func first(_ keys: [String]) -> String? {
            for key in keys { if let s = value[key]?.string, !s.isEmpty { return s } }
            return nil
        }
        guard let kind = first(widgetKeys.kind), let app = first(widgetKeys.app) else { return nil }
        let ext = first(widgetKeys.extensionBundle)
        let instance = first(widgetKeys.instance) ?? "hsp:\(stack)/\(ext ?? app)/\(kind)"
        return Widget(instance: instance, app: app, extensionBundle: ext, kind: kind, family: family)
    }
}
