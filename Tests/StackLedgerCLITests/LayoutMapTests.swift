import Foundation
import StackLedgerTesting
import Testing

@Suite("README's layout map")
struct LayoutMapTests {
    /// The lines of the code block under README's `## Layout`.
    static func mapLines() throws -> [Substring] {
        let readme = try String(contentsOfFile: Fixtures.repositoryRoot + "/README.md", encoding: .utf8)
        let afterHeading = try #require(readme.range(of: "\n## Layout\n")).upperBound
        let rest = readme[afterHeading...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n")
    }

    /// Every path-like word of the map (`Sources/...`, `Tests/...`, `tools/...`, `docs/...`).
    static func mapPaths() throws -> [String] {
        try mapLines().flatMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "(" || $0 == ")" || $0 == ";" })
                .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ".:")) }
                .filter {
                    ["Sources/", "Tests/", "tools/", "docs/"].contains(where: $0.hasPrefix) && !$0.contains("*")
                }
        }
    }

    @Test("every path the map names exists")
    func pathsExist() throws {
        let paths = try Self.mapPaths()
        #expect(paths.count > 30)
        let missing = paths.filter { !FileManager.default.fileExists(atPath: Fixtures.repositoryRoot + "/" + $0) }
        #expect(missing.isEmpty, "named in README's layout map but not in the repository: \(missing)")
    }

    @Test("every module under Sources/ is in the map, and every command's source file")
    func everyModuleAndCommand() throws {
        let named = Set(try Self.mapPaths())
        let modules = try FileManager.default.contentsOfDirectory(atPath: Fixtures.repositoryRoot + "/Sources")
            .filter { !$0.hasPrefix("Fuzz") || $0 == "FuzzOracles" }
        let unnamed = modules.filter { !named.contains("Sources/" + $0) }
        #expect(unnamed.isEmpty, "modules missing from README's layout map: \(unnamed)")
        // Every file that declares a command is named.
        let cli = Fixtures.repositoryRoot + "/Sources/StackLedgerCLI"
        let commandFiles = try FileManager.default.contentsOfDirectory(atPath: cli).filter { name in
            let text = try String(contentsOfFile: cli + "/" + name, encoding: .utf8)
            return text.contains("ParsableCommand {") && name != "StackLedgerCommand.swift"
        }
        #expect(!commandFiles.isEmpty)
        let unmapped = commandFiles.filter { !named.contains("Sources/StackLedgerCLI/" + $0) }
        #expect(unmapped.isEmpty, "command files missing from README's layout map: \(unmapped)")
    }
}
