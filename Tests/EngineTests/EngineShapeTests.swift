import Foundation
import Testing

/// The engine's source keeps its shape: no function longer than a screen and a half, and
/// the rules (`*Rules.swift`, the router) change the device model only, never a cache.
@Suite("The engine's shape")
struct EngineShapeTests {
    /// The longest a function of SmartStack may be, in lines from its declaration to its
    /// closing brace.
    static let longestFunction = 80

    static var engineSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SmartStack")
    }

    static func swiftFiles(under root: URL) throws -> [URL] {
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    @Test("the measure finds a function one line too long, and not one of the longest allowed")
    func measureFindsLongFunctions() {
        func source(bodyLines: Int) -> String {
            let body = (0..<bodyLines).map { "        let v\($0) = \($0)" }.joined(separator: "\n")
            return "extension Engine {\n    /// Doc.\n    mutating func work(\n        a: Int\n    ) -> Int {\n"
                + body + "\n        return a\n    }\n}\n"
        }
        // Declaration (3 lines), body, `return`, closing brace: body + 5 lines.
        let allowed = source(bodyLines: Self.longestFunction - 5)
        let tooLong = source(bodyLines: Self.longestFunction - 4)
        #expect(FunctionLengths.measure(allowed).map(\.lines) == [Self.longestFunction])
        #expect(FunctionLengths.measure(tooLong).map(\.lines) == [Self.longestFunction + 1])
        #expect(FunctionLengths.measure("    var total: Int {\n        1\n    }\n").map(\.lines) == [3])
        // A requirement without a body is no function to measure; a signature over several
        // lines counts from its first.
        #expect(
            FunctionLengths.measure(
                "    func a() -> Int\n    func b(\n        x: Int\n    )\n        -> Int\n    {\n        x\n    }\n"
            ).map(\.lines) == [7])
    }

    @Test("no function of SmartStack is longer than 80 lines")
    func noLongFunctions() throws {
        let files = try Self.swiftFiles(under: Self.engineSources)
        #expect(files.count > 40, "\(Self.engineSources.path)")
        var long = [String]()
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for function in FunctionLengths.measure(text) where function.lines > Self.longestFunction {
                long.append("\(file.lastPathComponent):\(function.line) \(function.lines) lines: \(function.name)")
            }
        }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
    }

    @Test("the rules and the router never touch a cache: what they change is told through the cache notes")
    func rulesLeaveCachesAlone() throws {
        let rules = try Self.swiftFiles(under: Self.engineSources).filter {
            $0.lastPathComponent.hasSuffix("Rules.swift") || $0.lastPathComponent == "DeviceEngine+Apply.swift"
        }
        #expect(rules.count >= 6)
        var touches = [String]()
        for file in rules {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (n, line) in lines.enumerated() where line.contains("caches.") {
                touches.append("\(file.lastPathComponent):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(touches.isEmpty, "\(touches.joined(separator: "\n"))")
    }

    /// The `package` declarations SmartStack opens to the other modules of this package,
    /// beside its public API. Each is a door into the engine's room: adding one means adding
    /// it here, within `packageBudget`.
    static let packageDoors: Set<String> = []

    /// The most `package` declarations SmartStack may have.
    static let packageBudget = 25

    @Test("the package-door finder sees a declaration under attributes and nothing in comments or imports")
    func packageDoorFinderWorks() {
        let source = """
            package import RecordFormat
            /// A package of widgets.
            package struct Open {
                @inlinable package var state: Int { 1 }
                var closed = 0
                package static func make() -> Open { Open() }
            }
            """
        #expect(PackageDoors.find(in: source) == ["Open", "state", "make"])
    }

    @Test("SmartStack opens only the listed package doors, fewer than 25; the engine's state and caches are closed")
    func packageDoorsAreListed() throws {
        var doors = [String]()
        var openState = [String]()
        for file in try Self.swiftFiles(under: Self.engineSources) {
            let text = try String(contentsOf: file, encoding: .utf8)
            doors += PackageDoors.find(in: text).map { "\(file.lastPathComponent): \($0)" }
            for line in text.split(separator: "\n")
            where line.contains("var state:") || line.contains("var caches") {
                if line.contains("public ") || line.contains("package ") { openState.append(String(line)) }
            }
        }
        #expect(doors.count <= Self.packageBudget)
        #expect(Set(doors.map { String($0.split(separator: " ").last!) }) == Self.packageDoors, "\(doors)")
        #expect(openState.isEmpty, "\(openState)")
    }
}

/// The names SmartStack declares with the `package` access level.
enum PackageDoors {
    static func find(in source: String) -> [String] {
        var names = [String]()
        for line in source.split(separator: "\n") {
            var words = line.split(separator: " ")[...]
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "package", words.dropFirst().first != "import" else { continue }
            let keywords: Set<Substring> = [
                "struct", "enum", "class", "protocol", "typealias", "func", "var", "let", "case", "actor",
            ]
            guard let keyword = words.firstIndex(where: { keywords.contains($0) }), keyword + 1 < words.endIndex
            else {
                if words.contains(where: { $0.hasPrefix("init") || $0.hasPrefix("subscript") }) {
                    names.append(String(words.first { $0.hasPrefix("init") || $0.hasPrefix("subscript") }!))
                }
                continue
            }
            let name = words[keyword + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            names.append(String(name))
        }
        return names
    }
}

/// The functions of a Swift source formatted by `swift format`: each declaration of a
/// function, initializer, subscript or computed property, measured from its first line to
/// the closing brace at its own indentation.
enum FunctionLengths {
    struct Function: Equatable {
        var name: String
        var line: Int
        var lines: Int
    }

    static func measure(_ source: String) -> [Function] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found = [Function]()
        for (index, line) in lines.enumerated() {
            guard let indent = declarationIndent(line) else { continue }
            let closing = String(repeating: " ", count: indent) + "}"
            guard let opening = bodyOpening(lines, declaration: index, indent: indent) else { continue }
            guard let end = lines[(opening + 1)...].firstIndex(where: { $0 == closing }) else { continue }
            found.append(
                Function(
                    name: line.trimmingCharacters(in: .whitespaces), line: index + 1, lines: end - index + 1))
        }
        return found
    }

    /// The line that opens the body of the declaration at `declaration`: the first line
    /// ending in `{` once its parentheses close, where the signature may go on over more
    /// deeply indented lines; nil for a declaration without a body (a protocol's requirement).
    static func bodyOpening(_ lines: [String], declaration: Int, indent: Int) -> Int? {
        var depth = 0
        for j in declaration..<lines.count {
            let line = lines[j]
            if j > declaration && depth <= 0 {
                let own = line.prefix { $0 == " " }.count
                guard own > indent || line == String(repeating: " ", count: indent) + "{" else { return nil }
            }
            depth += line.filter { $0 == "(" }.count - line.filter { $0 == ")" }.count
            if depth <= 0 && line.hasSuffix("{") { return j }
        }
        return nil
    }

    /// The indentation of a line that declares a function, initializer, subscript or
    /// computed property; nil for any other line.
    static func declarationIndent(_ line: String) -> Int? {
        let indent = line.prefix { $0 == " " }.count
        var words = line.dropFirst(indent).split(separator: " ", omittingEmptySubsequences: true)
        let modifiers: Set<Substring> = [
            "public", "package", "internal", "private", "fileprivate", "static", "mutating", "nonmutating",
            "override", "final", "nonisolated", "consuming", "borrowing", "@inlinable", "@usableFromInline",
            "@inline(__always)", "@discardableResult",
        ]
        while let first = words.first, modifiers.contains(first) { words.removeFirst() }
        guard let keyword = words.first else { return nil }
        if keyword == "func" || keyword.hasPrefix("init(") || keyword.hasPrefix("init<") || keyword.hasPrefix("init?(")
            || keyword.hasPrefix("subscript(")
        {
            return line.hasSuffix("}") ? nil : indent
        }
        // A computed property: `var name: Type {`.
        if keyword == "var", line.hasSuffix("{"), !line.contains("=") { return indent }
        return nil
    }
}
