/// Writes SpringBoard `IconState.plist` files from the key names SpringBoard uses
/// (forensic-sources.md §10a). No public sample of a widget-era file exists; these are
/// built from the names alone, independently of the importer's reader.
public enum IconStateWriter {
    /// One widget element.
    public struct Element: Sendable {
        public var uniqueIdentifier: String
        public var kind: String
        public var app: String
        public var extensionBundle: String
        public var elementType = "widget"

        public init(_ uniqueIdentifier: String, kind: String, app: String, extensionBundle: String) {
            self.uniqueIdentifier = uniqueIdentifier
            self.kind = kind
            self.app = app
            self.extensionBundle = extensionBundle
        }

        /// A non-widget element (`siriSuggestions`, `appPredictions`, ...).
        public static func other(_ type: String, id: String) -> Element {
            var e = Element(id, kind: "", app: "", extensionBundle: "")
            e.elementType = type
            return e
        }

        var node: [(String, PlistNode)] {
            guard elementType == "widget" else {
                return [("uniqueIdentifier", .string(uniqueIdentifier)), ("elementType", .string(elementType))]
            }
            return [
                ("elementType", .string("widget")), ("uniqueIdentifier", .string(uniqueIdentifier)),
                ("widgetIdentifier", .string(kind)), ("bundleIdentifier", .string(extensionBundle)),
                ("containerBundleIdentifier", .string(app)),
            ]
        }
    }

    /// A stack (an icon with `elements`) or a single widget (one element written flat).
    public struct Icon: Sendable {
        public var displayIdentifier: String
        public var gridSize: String
        public var elements: [Element]
        public var isStack: Bool
        public var allowsSuggestions: Bool?
        public var allowsExternalSuggestions: Bool?
        public var selected: String?

        /// A stack.
        public static func stack(
            _ id: String, gridSize: String = "small", _ elements: [Element], smartRotate: Bool? = true,
            suggestions: Bool? = true, selected: String? = nil
        ) -> Icon {
            Icon(
                displayIdentifier: id, gridSize: gridSize, elements: elements, isStack: true,
                allowsSuggestions: smartRotate, allowsExternalSuggestions: suggestions, selected: selected)
        }

        /// A single widget, with switches and a selection of its own when given (real files
        /// write them, the selection being the widget's own identifier).
        public static func widget(
            _ element: Element, gridSize: String = "small", smartRotate: Bool? = nil, suggestions: Bool? = nil,
            selected: String? = nil
        ) -> Icon {
            Icon(
                displayIdentifier: element.uniqueIdentifier, gridSize: gridSize, elements: [element], isStack: false,
                allowsSuggestions: smartRotate, allowsExternalSuggestions: suggestions, selected: selected)
        }

        var node: PlistNode {
            var members: [(String, PlistNode)] = [
                ("iconType", .string("custom")), ("displayIdentifier", .string(displayIdentifier)),
                ("gridSize", .string(gridSize)),
            ]
            if let a = allowsSuggestions { members.append(("allowsSuggestions", .bool(a))) }
            if let a = allowsExternalSuggestions { members.append(("allowsExternalSuggestions", .bool(a))) }
            if let s = selected { members.append(("userSelectedElementIdentifier", .string(s))) }
            if isStack {
                members.append(("elements", .array(elements.map { .dict($0.node) })))
            } else {
                members += elements[0].node
            }
            return .dict(members)
        }
    }

    /// An icon state: pages of apps and widgets, a dock, and the Today view's list, as a
    /// binary plist (SpringBoard's form) or an XML one (`plutil -convert xml1`'s).
    public static func encode(
        pages: [[Icon]], apps: [String] = ["com.apple.mobilesafari"], today: [Icon] = [], xml: Bool = false
    ) -> [UInt8] {
        let root = tree(pages: pages, apps: apps, today: today)
        return xml ? XMLPlistWriter.encode(root) : BinaryPlistWriter.encode(root)
    }

    /// The root dictionary of an icon state.
    public static func tree(pages: [[Icon]], apps: [String] = ["com.apple.mobilesafari"], today: [Icon] = [])
        -> PlistNode
    {
        let pageNodes: [PlistNode] = pages.map { page in .array(apps.map { .string($0) } + page.map(\.node)) }
        let folder: PlistNode = .dict([
            ("listType", .string("folder")), ("displayName", .string("Utilities")),
            ("iconLists", .array([.array([.string("com.apple.calculator")])])),
        ])
        return .dict([
            ("buttonBar", .array([.string("com.apple.mobilephone")])),
            ("iconLists", .array(pageNodes + [.array([folder])])),
            ("today", .array(today.map(\.node))),
            ("listUniqueIdentifiers", .array(pages.indices.map { .string("page-\($0)") })),
            ("widgetVersion", .int(1)),
        ])
    }
}
