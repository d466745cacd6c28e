import ArgumentParser
import Projections
import SmartStack

struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Print the decision policy in force: its name, version, digest and parameters.",
        discussion: """
            smartstack-1 is StackLedger's model of the Smart Stack, not Apple's algorithm: every \
            rule Apple documents is fixed, every undocumented choice is a parameter here. \
            --policy FILE.json overrides parameters (a file may name only those it changes).
            """)

    /// Accepted as on every command; the policy reads no store.
    @OptionGroup var storeOptions: StoreOptions
    @Option(
        name: .customLong("policy"),
        help: ArgumentHelp("Override policy parameters from a JSON file.", valueName: "file")) var policyFile: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let policy = try loadPolicy(policyFile)
        var out = StandardOutput()
        if json {
            var w = CanonicalWriter()
            ProjectionJSON.writePolicyDocument(&w, policy: policy, tool: StackLedgerCommand.toolVersion)
            w.bytes.append(0x0A)
            out.write(w.bytes)
        } else {
            out.write("\(policy.name) version \(Policy.version), digest \(policy.digest)\n")
            out.write("StackLedger's model of the Smart Stack (not Apple's algorithm); undocumented choices:\n")
            out.write(policy.parametersJSON(pretty: true) + "\n")
        }
        out.flush()
    }
}
