import Hummingbird
import Ledger
import ServiceLifecycle
import Synchronization

/// `/api/commits`: Server-Sent Events that tell the page when another process commits to the
/// store, so that a live view refreshes itself. Each event is `commit`, its data
/// `{"lastSeq":N}`, sent at once and then whenever the newest sequence number changes (the
/// store is looked at twice a second). A stream ends after `lifetime` or when the server
/// shuts down; the browser's EventSource reconnects after `retry`.
enum CommitStream {
    static let pollInterval: Duration = .milliseconds(500)
    static let lifetime: Duration = .seconds(300)
    static let retryMilliseconds = 1_000

    static func response(ledger: Ledger) -> Response {
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let stopping = Stopping()
                try await withGracefulShutdownHandler {
                    try await writer.write(ByteBuffer(string: "retry: \(retryMilliseconds)\n\n"))
                    var told: UInt64?
                    let clock = ContinuousClock()
                    let end = clock.now.advanced(by: lifetime)
                    while !stopping.value, clock.now < end, !Task.isCancelled {
                        let last = try ledger.read { try $0.lastSeq() }
                        if last != told {
                            try await writer.write(ByteBuffer(string: "event: commit\ndata: {\"lastSeq\":\(last)}\n\n"))
                            told = last
                        }
                        try await Task.sleep(for: pollInterval)
                    }
                } onGracefulShutdown: {
                    stopping.stop()
                }
                try await writer.finish(nil)
            })
    }

    /// Set once the server begins to shut down.
    final class Stopping: Sendable {
        private let flag = Atomic<Bool>(false)
        var value: Bool { flag.load(ordering: .relaxed) }
        func stop() { flag.store(true, ordering: .relaxed) }
    }
}
