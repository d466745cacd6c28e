import SmartStack

/// The stacks and single widgets of a record of the home screen: SpringBoard's
/// `IconState.plist` (forensic-sources.md §10a), read here with the key names SpringBoard
/// writes, or duetexpertd's `HomeScreenPages` (§10b, `HomeScreenPagesLayout.swift`).
struct HomeScreenLayout {
    /// A widget as an icon's element holds it.
    struct Widget: Equatable {
        var instance: String
        var app: String
        var extensionBundle: String?
        var kind: String
        var family: String
        /// A single widget's own switches and selection (never a stack's).
        var switches = Switches()
    }

    /// The switches an icon carries, when written: `allowsSuggestions` (Smart Rotate),
    /// `allowsExternalSuggestions` (Widget Suggestions) and `userSelectedElementIdentifier`.
    struct Switches: Equatable {
        var smartRotate: Bool?
        var widgetSuggestions: Bool?
        var selected: String?

        init() {}

        init(_ icon: PlistValue) {
            smartRotate = HomeScreenLayout.bool(icon["allowsSuggestions"])
            widgetSuggestions = HomeScreenLayout.bool(icon["allowsExternalSuggestions"])
            selected = icon["userSelectedElementIdentifier"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// A stack: an icon with `elements`.
    struct Stack: Equatable {
        var id: String
        var family: String
        var members: [Widget]
        /// `allowsSuggestions` (Smart Rotate), when written.
        var smartRotate: Bool?
        /// `allowsExternalSuggestions` (Widget Suggestions), when written.
        var widgetSuggestions: Bool?
        /// `userSelectedElementIdentifier`, when written.
        var selected: String?
        /// Where the icon was: `page 2`, `Today view`.
        var place: String
    }

    var stacks: [Stack] = []
    var widgets: [Widget] = []
    /// Elements that are not widgets (`siriSuggestions`, `appPredictions`, ...), by type.
    var otherElements: [String: Int] = [:]
    /// Icons or elements that could not be read, each with the reason.
    var problems: [String] = []
    /// What the report should say that is not a failure.
    var notes: [String] = []
    /// Icons looked at (apps, folders, widgets and stacks).
    var icons = 0

    /// How deep pages, folders and lists may nest before the file is taken as malformed.
    static let maximumDepth = 16

    /// WidgetKit families by SpringBoard's `gridSize`.
    static let families = [
        "small": "systemSmall", "medium": "systemMedium", "large": "systemLarge", "extraLarge": "systemExtraLarge",
    ]

    /// An empty layout.
    init() {}

    /// Reads the root dictionary of an IconState.plist.
    ///
    /// A root, `iconLists`, `today` or a stack's `elements` of the wrong type, or lists that
    /// claim icons of which none can be read, make the file no layout: an error, never an
    /// empty layout.
    init(root: PlistValue) throws(IconStateError) {
        guard case .dictionary = root else {
            throw IconStateError("its root is \(root.typeName), not a dictionary; it is not a SpringBoard icon state")
        }
        guard root["iconLists"] != nil || root["today"] != nil else {
            throw IconStateError("it has neither iconLists nor today; it is not a SpringBoard icon state")
        }
        for key in ["iconLists", "today"] {
            if let value = root[key], value.array == nil {
                throw IconStateError(
                    "its \(key) is \(value.typeName), not an array of icons; it is not a layout SpringBoard wrote")
            }
        }
        for (n, page) in (root["iconLists"]?.array ?? []).enumerated() {
            guard page.array != nil else {
                unreadLists += 1
                problems.append("page \(n + 1) is \(page.typeName), not a list of icons; it was not read")
                continue
            }
            try walk(page, place: "page \(n + 1)", depth: 1)
        }
        if let today = root["today"] { try walk(today, place: "Today view", depth: 1) }
        if icons == 0 && (unreadIcons > 0 || unreadLists > 0) {
            throw IconStateError(
                "its icon lists hold \(unreadIcons + unreadLists) entr\(unreadIcons + unreadLists == 1 ? "y" : "ies") and not one readable icon; it is not a layout SpringBoard wrote"
            )
        }
    }

    /// Entries of an icon list that are neither an app's bundle id nor an icon dictionary.
    var unreadIcons = 0
    /// Pages or folder lists that are not lists of icons.
    var unreadLists = 0

    /// Whether every page and every icon of the file was read: only then does the layout
    /// list every stack of the device (`complete`).
    var isComplete: Bool { unreadIcons == 0 && unreadLists == 0 }

    /// Visits every icon of a list (a page, a folder's page, the Today view's list).
    private mutating func walk(_ value: PlistValue, place: String, depth: Int) throws(IconStateError) {
        guard depth <= Self.maximumDepth else {
            throw IconStateError("its lists nest more than \(Self.maximumDepth) deep; it is malformed")
        }
        if let list = value.array {
            for item in list { try walk(item, place: place, depth: depth + 1) }
            return
        }
        switch value {
        case .string: // an app, as its bundle id
            icons += 1
            return
        case .dictionary: icons += 1
        default:
            unreadIcons += 1
            problems.append("an entry on \(place) is \(value.typeName), not an icon; it was not read")
            return
        }
        if value["listType"]?.string == "folder" {
            if let pages = value["iconLists"] {
                guard pages.array != nil else {
                    unreadLists += 1
                    problems.append("a folder on \(place) has iconLists that is \(pages.typeName); it was not read")
                    return
                }
                try walk(pages, place: place, depth: depth + 1)
            }
            return
        }
        guard value["iconType"]?.string == "custom" else { return }
        try read(icon: value, place: place)
    }

    /// A widget or a stack: an icon with `iconType` `custom`.
    private mutating func read(icon: PlistValue, place: String) throws(IconStateError) {
        let id = icon["displayIdentifier"]?.string
        let grid = icon["gridSize"]?.string ?? "small"
        let family = Self.families[grid] ?? grid
        let switches = Switches(icon)
        guard let elementsValue = icon["elements"] else {
            // A single widget: one element's keys written flat into the icon, with switches
            // and a selection of its own that belong to no stack.
            if var widget = widget(icon, family: family, fallbackID: id, place: place) {
                widget.switches = switches
                widgets.append(widget)
            }
            return
        }
        guard let elements = elementsValue.array else {
            throw IconStateError(
                "the stack \(id ?? "without a displayIdentifier") on \(place) has elements that is \(elementsValue.typeName), not an array; it is not a layout SpringBoard wrote"
            )
        }
        guard let id, !id.isEmpty else {
            problems.append("a stack on \(place) has no displayIdentifier; it is not imported")
            return
        }
        var members = [Widget]()
        for element in elements {
            if let w = widget(element, family: family, fallbackID: nil, place: "\(id) on \(place)") {
                members.append(w)
            }
        }
        stacks.append(
            Stack(
                id: id, family: family, members: members, smartRotate: switches.smartRotate,
                widgetSuggestions: switches.widgetSuggestions, selected: switches.selected, place: place))
    }

    /// One element: a widget, or another kind of element (counted, not imported).
    private mutating func widget(_ element: PlistValue, family: String, fallbackID: String?, place: String) -> Widget? {
        let type = element["elementType"]?.string ?? "widget"
        guard type == "widget" else {
            otherElements[type, default: 0] += 1
            return nil
        }
        guard let instance = element["uniqueIdentifier"]?.string ?? fallbackID, !instance.isEmpty else {
            problems.append("a widget in \(place) has no uniqueIdentifier; it is not imported")
            return nil
        }
        guard let kind = element["widgetIdentifier"]?.string, !kind.isEmpty else {
            problems.append("widget \(instance) in \(place) has no widgetIdentifier (its kind); it is not imported")
            return nil
        }
        guard let app = element["containerBundleIdentifier"]?.string, !app.isEmpty else {
            problems.append(
                "widget \(instance) in \(place) has no containerBundleIdentifier (its app); it is not imported")
            return nil
        }
        let ext = element["bundleIdentifier"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        return Widget(instance: instance, app: app, extensionBundle: ext, kind: kind, family: family)
    }

    static func bool(_ value: PlistValue?) -> Bool? {
        switch value {
        case .bool(let b)?: return b
        case .integer(let i)?: return i != 0
        default: return nil
        }
    }
}

/// Why a property list is not an icon state StackLedger can read.
struct IconStateError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

extension HomeScreenLayout {
    /// How `self` differs from `recorded` (IconState.plist), one line each: stacks in one
    /// only, members, their order, or switches that differ. `name`: what `self` was read
    /// from (`DesiredIconState.plist`, `HomeScreenPages`).
    func differences(from recorded: HomeScreenLayout, name: String) -> [String] {
        var out = [String]()
        let mine = Dictionary(stacks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let theirs = Dictionary(recorded.stacks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in theirs.keys.sorted() where mine[id] == nil { out.append("stack \(id) is in IconState.plist only") }
        for id in mine.keys.sorted() where theirs[id] == nil { out.append("stack \(id) is in \(name) only") }
        for id in mine.keys.sorted() {
            guard let a = mine[id], let b = theirs[id] else { continue }
            let ma = a.members.map(\.instance)
            let mb = b.members.map(\.instance)
            if ma != mb {
                out.append(
                    "stack \(id): \(name) lists \(ma.joined(separator: ", ")); IconState.plist lists \(mb.joined(separator: ", "))"
                )
            }
            if a.smartRotate != b.smartRotate || a.widgetSuggestions != b.widgetSuggestions {
                out.append("stack \(id): the switches differ between \(name) and IconState.plist")
            }
        }
        return out
    }

    /// The layout of a file already read (an icon state, or `HomeScreenPages` when its
    /// name says so), or nil when it is not one.
    static func read(_ file: ArtifactFile, name: String) -> HomeScreenLayout? {
        if name == HomeScreenPagesImporter.fileName {
            return try? HomeScreenLayout(homeScreenPages: file.bytes[...])
        }
        guard let root = try? PropertyList.parse(file.bytes[...]).value else { return nil }
        return try? HomeScreenLayout(root: root)
    }
}
