/// Writes duetexpertd's `HomeScreenPages` archives from the names of forensic-sources.md
/// §10b (`ATXHomeScreenStackConfig`: `identifier`, `widgets`, `allowsSmartRotate`,
/// `allowsNewWidget`, `stackLayoutSize`, `coordinateRow`, `coordinateColumn`). No public
/// sample exists; the widgets' keys are the Duet expert store's column names.
public enum HomeScreenPagesWriter {
    /// A widget of a stack configuration.
    public struct Widget: Sendable {
        public var uniqueId: String?
        public var extensionBundle: String?
        public var kind: String?
        public var app: String?

        /// Creates a widget; a nil field is not written.
        public init(_ uniqueId: String?, kind: String?, app: String?, extensionBundle: String?) {
            self.uniqueId = uniqueId
            self.kind = kind
            self.app = app
            self.extensionBundle = extensionBundle
        }
    }

    /// One `ATXHomeScreenStackConfig`.
    public struct StackConfig: Sendable {
        public var identifier: String
        public var widgets: [Widget]
        public var allowsSmartRotate: Bool
        public var allowsNewWidget: Bool
        /// `stackLayoutSize`, as a name (`small`, `medium`) or a number.
        public var size: ArchiveValue
        public var row: Int64
        public var column: Int64

        /// Creates a configuration.
        public init(
            _ identifier: String, widgets: [Widget], smartRotate: Bool = true, newWidget: Bool = true,
            size: ArchiveValue = .string("medium"), row: Int64 = 0, column: Int64 = 0
        ) {
            self.identifier = identifier
            self.widgets = widgets
            allowsSmartRotate = smartRotate
            allowsNewWidget = newWidget
            self.size = size
            self.row = row
            self.column = column
        }
    }

    /// The archive of `pages` (each an array of stack configurations), as a binary plist
    /// or, with `xml`, an XML one.
    public static func encode(pages: [[StackConfig]], xml: Bool = false) -> [UInt8] {
        KeyedArchiveWriter.archive(
            .array(
                pages.map { page in
                    .object("ATXHomeScreenPage", [("stacks", .array(page.map(config)))])
                }), xml: xml)
    }

    static func config(_ c: StackConfig) -> ArchiveValue {
        .object(
            "ATXHomeScreenStackConfig",
            [
                ("identifier", .string(c.identifier)), ("widgets", .array(c.widgets.map(widget))),
                ("allowsSmartRotate", .bool(c.allowsSmartRotate)), ("allowsNewWidget", .bool(c.allowsNewWidget)),
                ("stackLayoutSize", c.size), ("coordinateRow", .int(c.row)), ("coordinateColumn", .int(c.column)),
            ])
    }

    static func widget(_ w: Widget) -> ArchiveValue {
        var members = [(String, ArchiveValue)]()
        if let id = w.uniqueId { members.append(("widgetUniqueId", .string(id))) }
        if let ext = w.extensionBundle { members.append(("extensionBundleId", .string(ext))) }
        if let kind = w.kind { members.append(("widgetKind", .string(kind))) }
        if let app = w.app { members.append(("containerBundleIdentifier", .string(app))) }
        return .object("ATXHomeScreenWidgetIdentifiable", members)
    }
}
