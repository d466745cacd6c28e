import Dispatch
import Ledger
import Synchronization

/// Artifact files read on other threads while the archive is decompressed, stored in the
/// order they were submitted: when as many as the limit wait, the oldest and those ready
/// after it are stored in one commit (one flush to disk), each file whole or not at all.
final class OrderedReads {
    private final class Slot: Sendable {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<ArtifactImport?>(nil)
    }

    private var slots: [(slot: Slot, family: String, bytes: Int)] = []
    /// The bytes of the files submitted and not yet stored.
    private var held = 0
    private let limit: Int
    /// The most bytes of files held at once (but for one larger file).
    static let heldBytes = 64 << 20
    private let ledger: Ledger
    private let stored: (ImportFileReport, String) -> Void

    /// Reads at most `limit` files at once; `stored` gets each file's report and family,
    /// in order, once it is stored.
    init(limit: Int, ledger: Ledger, stored: @escaping (ImportFileReport, String) -> Void) {
        self.limit = limit
        self.ledger = ledger
        self.stored = stored
    }

    /// Reads a file of `bytes` with `read` on another thread.
    func submit(family: String, bytes: Int = 0, _ read: @escaping @Sendable () -> ArtifactImport) throws {
        while !slots.isEmpty && (slots.count >= limit || held + bytes > Self.heldBytes) {
            try storeReady(waiting: true)
        }
        let slot = Slot()
        slots.append((slot, family, bytes))
        held += bytes
        DispatchQueue.global().async {
            let result = read()
            slot.result.withLock { $0 = result }
            slot.done.signal()
        }
    }

    /// A file that failed before it could be read: reported in its place.
    func submitFailure(_ report: ImportFileReport, family: String) throws {
        try submit(family: family) { ArtifactImport(events: [], report: report) }
    }

    /// Stores every file submitted, in order.
    func finish() throws {
        while !slots.isEmpty { try storeReady(waiting: true) }
    }

    /// Stores the files read so far, from the oldest on; with `waiting`, waits for the
    /// oldest first.
    private func storeReady(waiting: Bool) throws {
        var group = [(ArtifactImport, String)]()
        for (index, (slot, family, bytes)) in slots.enumerated() {
            if waiting && index == 0 {
                slot.done.wait()
            } else if slot.done.wait(timeout: .now()) != .success {
                break
            }
            guard let result = slot.result.withLock({ $0 }) else { break }
            group.append((result, family))
            held -= bytes
        }
        guard !group.isEmpty else { return }
        slots.removeFirst(group.count)
        for (report, (_, family)) in zip(try ImportRun.store(group.map(\.0), into: ledger), group) {
            stored(report, family)
        }
    }
}

@available(*, unavailable)
extension OrderedReads: Sendable {}
