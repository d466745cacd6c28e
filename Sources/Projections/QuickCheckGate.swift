public import Ledger

/// The quick check every query rests on, one rule for the command line and `serve`: run on
/// the store's newest commit, kept for that commit, run again when another lands. A store
/// that fails it is answered only on request (`--force`), and then with its damaged records
/// skipped and the answer marked unverified.
public final class QuickCheckGate {
    /// What the gate lets through.
    public enum Admission: Sendable {
        /// The check passes: the answer is verified.
        case verified
        /// The check fails, and the caller asked to answer anyway.
        case unverified(VerifyReport.Problem)

        /// Whether the answer rests on a store that passed the check.
        public var isVerified: Bool {
            if case .verified = self { return true }
            return false
        }
    }

    /// A store the gate refuses: the check fails and the caller did not force an answer.
    public struct Refusal: Error, Sendable {
        /// What the check found.
        public var problem: VerifyReport.Problem
        /// What to tell the person, before the front end adds its own way out.
        public var message: String { "the store fails its quick check (\(problem)); run `stackledger verify`" }
    }

    private let ledger: Ledger
    /// The commit the check last ran on, and what it found.
    private var last: (commit: Int, problem: VerifyReport.Problem?)?

    /// A gate for `ledger`; nothing is checked until asked.
    public init(ledger: Ledger) {
        self.ledger = ledger
    }

    /// The check's finding on the newest commit: nil when it passes.
    public func finding() throws -> VerifyReport.Problem? {
        let commit = try ledger.commitIdentity()
        if let last, last.commit == commit { return last.problem }
        // A commit landing in between leaves an older identity here: the next question checks again.
        let problem = try ledger.quickCheck()
        last = (commit, problem)
        return problem
    }

    /// Whether to answer: `.verified` when the check passes; when it fails, `.unverified`
    /// with `force`, else a `Refusal`. A projector given is told to skip damaged records
    /// exactly when the answer is unverified.
    public func admit(force: Bool, projector: Projector? = nil) throws -> Admission {
        let admission: Admission
        if let problem = try finding() {
            guard force else { throw Refusal(problem: problem) }
            admission = .unverified(problem)
        } else {
            admission = .verified
        }
        projector?.skipsDamagedRecords = !admission.isVerified
        return admission
    }
}
