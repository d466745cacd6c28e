import ArgumentParser
import Forensics
import Ledger
import Projections
import SmartStack

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every record's checksum, the hash chain and the indices.",
        discussion:
            "Prints the chain head (sequence number and hash) for an examiner's notes. Exit 1 names the first bad sequence number."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print the report as JSON.") var json = false
    @Option(
        name: .customLong("expect-head"),
        help: ArgumentHelp(
            "Also require the chain to hold this recorded head (\"seq N sha256:H\", as verify prints it): catches a store rolled back to an older copy.",
            valueName: "head")) var expectHead: String?

    func run() throws {
        let ledger: Ledger
        do {
            ledger = try Ledger(path: storeOptions.path, options: .init(readOnly: true))
        } catch let e where e.kind == .damaged {
            report(StoreVerification(failure: e.message))
            FailureReport.record("the store fails verification: \(e.message)", problems: [])
            throw ExitCode(ExitCodes.checkFailed)
        } catch {
            throw fail(error.message, code: ledgerExitCode(for: error))
        }
        let r: VerifyReport
        do {
            r = try ledger.verify()
        } catch let e as LedgerError {
            report(StoreVerification(failure: e.message))
            FailureReport.record("the store fails verification: \(e.message)", problems: [])
            throw ExitCode(ExitCodes.checkFailed)
        } catch {
            report(StoreVerification(failure: "the store cannot be read: \(error)"))
            FailureReport.record("the store fails verification: the store cannot be read: \(error)", problems: [])
            throw ExitCode(ExitCodes.checkFailed)
        }
        var problems = r.problems.map(\.description)
        var checkpoints = 0
        if r.isIntact {
            // Checkpoints are derived data, but answers rest on them: they must agree with the log.
            do {
                let (checked, found) = try Projector(ledger: ledger, policy: Policy()).checkCheckpoints()
                checkpoints = checked
                problems += found
            } catch {
                problems.append("the checkpoints cannot be read: \(error)")
            }
        }
        if let expectHead, let wrong = try expectedHeadProblem(expectHead, ledger: ledger) { problems.append(wrong) }
        let ok = r.isIntact && problems.isEmpty
        report(
            StoreVerification(
                ok: ok, head: r.head ?? r.computedHead, problems: problems, firstBadSeq: r.firstBadSeq,
                counts: (r.records, r.batches, r.strings, r.indexEntries), checkpoints: checkpoints))
        if !ok {
            FailureReport.record(
                "the store fails verification: " + (problems.first ?? "the log does not hold together"), problems: [])
            throw ExitCode(ExitCodes.checkFailed)
        }
    }

    private func report(_ v: StoreVerification) {
        if json {
            var w = CanonicalWriter()
            v.writeJSON(&w, tool: StackLedgerCommand.toolVersion)
            printOutput(w.text)
            return
        }
        if let counts = v.counts {
            printOutput(
                "checked \(counts.records) records in \(counts.batches) batches, \(counts.strings) strings, \(counts.indexEntries) index entries, \(v.checkpoints) checkpoints"
            )
        }
        if let head = v.head { printOutput("chain head: seq \(head.lastSeq) sha256:\(head.hashHex)") }
        if v.ok {
            printOutput("ok")
        } else {
            for p in v.problems { printOutput("problem: \(p)") }
            printError(
                v.firstBadSeq.map { "verify failed: the first bad sequence number is \($0)" }
                    ?? "verify failed: \(v.problems.first ?? "")")
        }
    }
}
