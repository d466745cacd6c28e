import ArgumentParser
import Forensics
import Foundation
import Importers
import Ledger
import SmartStack

extension Import {
    /// `import extraction PATH`: every artifact of a device's extraction, one report.
    func importExtraction() throws {
        var options = ExtractionImport.Options()
        options.timeZone = timeZone
        options.layoutTime = layoutTime?.timestamp
        let terminal = stderrIsTerminal
        let done = ProgressCounter()
        options.onFile = { report in
            let n = done.next()
            if terminal { printProgress("imported \(n) file\(n == 1 ? "" : "s"), last \(report.path.shown)") }
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw fail("\(path.shown) does not exist", code: ExitCodes.ioError)
        }
        let ledger = try openLedger(storeOptions, readOnly: false, writesInPlace: true)
        let held = try withLedgerErrors { try ledger.read { try $0.devices() } }
        if let device {
            options.device = device
        } else {
            let derived = Self.deviceName(fromExtraction: path)
            guard held.allSatisfy({ $0 == derived }) else {
                throw fail(
                    "the store already holds \(held.map(\.shown).joined(separator: ", ")); name this extraction's device with --device",
                    code: ExitCodes.usage)
            }
            options.device = derived
            printError("device: \(derived.shown) (from the extraction's folder name; --device sets it)")
        }
        let report: ExtractionImport.Report
        do {
            report = try ExtractionImport(options: options).run(path: path, into: ledger)
        } catch let e as LedgerError {
            if terminal { printProgress("") }
            throw fail(e.message, code: ledgerExitCode(for: e))
        } catch let e as ImportError {
            throw fail(
                e.description,
                code: e.isUsage ? ExitCodes.usage : e.isMalformed ? ExitCodes.dataError : ExitCodes.ioError)
        }
        if terminal { printProgress("") }
        let files = report.files + (report.deviceInfo.map { [$0] } ?? [])
        if json {
            printJSON(files, passedOver: report.notRead + report.passedOver)
        } else {
            printText(files, passedOver: [])
            var out = StandardOutput()
            out.write(report.familySummary)
            for p in report.notRead { out.write("present, not read\t\(p.path.shown)\t\(p.reason.shown)\n") }
            for p in report.passedOver { out.write("passed over\t\(p.path.shown)\t\(p.reason.shown)\n") }
            out.flush()
        }
        let failedFiles = files.filter { $0.error != nil }
        for r in failedFiles { printError("\(r.path.shown): \(r.error!.shown)") }
        if !failedFiles.isEmpty {
            FailureReport.record(
                "\(failedFiles.count) file\(failedFiles.count == 1 ? "" : "s") failed, the others were imported: "
                    + failedFiles.map { "\($0.path.shown): \($0.error!.shown)" }.joined(separator: "; "), problems: [])
            throw ExitCode(ExitCodes.dataError)
        }
    }

    /// A device name from the extraction's folder or archive name (without its extension): its letters, digits, `.`, `-` and
    /// `_`, others replaced by `-`.
    static func deviceName(fromExtraction path: String) -> String {
        var base = (ImportRun.absolute(path) as NSString).lastPathComponent
        for suffix in [".tar.gz", ".tgz", ".tar", ".zip"] where base.lowercased().hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        let name = String(base.map { $0.isLetter || $0.isNumber || ".-_".contains($0) ? $0 : "-" })
        return name.isEmpty ? "extraction" : name
    }
}
