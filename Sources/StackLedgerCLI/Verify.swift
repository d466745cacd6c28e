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
            report(ok: false, head: nil, problems: [e.message], firstBad: nil, counts: nil)
            FailureReport.record("the store fails verification: \(e.message)", problems: [])
            throw ExitCode(ExitCodes.checkFailed)
        } catch {
            throw fail(error.message, code: ledgerExitCode(for: error))
        }
        let r: VerifyReport
        do {
            r = try ledger.verify()
        } catch let e as LedgerError {
            report(ok: false, head: nil, problems: [e.message], firstBad: nil, counts: nil)
            FailureReport.record("the store fails verification: \(e.message)", problems: [])
            throw ExitCode(ExitCodes.checkFailed)
        } catch {
            report(ok: false, head: nil, problems: ["the store cannot be read: \(error)"], firstBad: nil, counts: nil)
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
            ok: ok, head: r.head ?? r.computedHead, problems: problems,
            firstBad: r.firstBadSeq, counts: (r.records, r.batches, r.strings, r.indexEntries), checkpoints: checkpoints
        )
        if !ok {
            FailureReport.record(
                "the store fails verification: " + (problems.first ?? "the log does not hold together"), problems: [])
            throw ExitCode(ExitCodes.checkFailed)
        }
    }

    private func report(
        ok: Bool, head: ChainHead?, problems: [String], firstBad: UInt64?, counts: (Int, Int, Int, Int)?,
        checkpoints: Int = 0
    ) {
        if json {
            var w = CanonicalWriter()
            w.beginObject()
            w.key("ok")
            w.bool(ok)
            w.key("head")
            if let head {
                w.beginObject()
                w.key("seq")
                w.integer(Int(head.lastSeq))
                w.key("sha256")
                w.string(head.hashHex)
                w.endObject()
            } else {
                w.null()
            }
            if let counts {
                w.key("records")
                w.integer(counts.0)
                w.key("batches")
                w.integer(counts.1)
                w.key("strings")
                w.integer(counts.2)
                w.key("indexEntries")
                w.integer(counts.3)
                w.key("checkpoints")
                w.integer(checkpoints)
            }
            w.key("firstBadSeq")
            if let firstBad { w.integer(Int(firstBad)) } else { w.null() }
            w.key("problems")
            w.beginArray()
            for p in problems { w.string(p) }
            w.endArray()
            w.key("tool")
            w.string(StackLedgerCommand.toolVersion)
            w.endObject()
            print(w.text)
            return
        }
        if let counts {
            print(
                "checked \(counts.0) records in \(counts.1) batches, \(counts.2) strings, \(counts.3) index entries, \(checkpoints) checkpoints"
            )
        }
        if let head { print("chain head: seq \(head.lastSeq) sha256:\(head.hashHex)") }
        if ok {
            print("ok")
        } else {
            for p in problems { print("problem: \(p)") }
            printError(
                firstBad.map { "verify failed: the first bad sequence number is \($0)" }
                    ?? "verify failed: \(problems.first ?? "")")
        }
    }
}
