import Synchronization

/// The questions answered on the thread that serves their connection, with no hand-over to
/// an answering thread and back: a `state` or `why` of the whole log at an instant whose
/// fold from a checkpoint is short (`Projector.foldsWithin`). Each is answered by one of as
/// many engines as event loops, made ready before the server listens; a question that
/// finds none free, or would fold long, goes to the `AnsweringThreads`, as every other
/// question does. Where a question is answered never changes its answer: every engine
/// reads the newest commit.
final class QuickAnswers: Sendable {
    /// The engines not answering now.
    private let idle: Mutex<[StoreAPI]>

    /// Records of the log between the checkpoints around a question's instant, at most,
    /// for it to be answered here: room for 36 devices' events interleaved at the default
    /// spacing of 224. A fold of that many events of one device, the longest a loop is
    /// then held, takes tens of milliseconds; a fold between default checkpoints, about
    /// half a millisecond.
    static let foldLimit: UInt64 = 8_192

    /// The engines to answer with, each made ready (`StoreAPI.prepare`).
    init(engines: [StoreAPI]) {
        for engine in engines { engine.prepare() }
        idle = Mutex(engines)
    }

    /// `question`'s answer to `q`, when it is quick and an engine is free; nil otherwise.
    func answer(
        _ q: QueryParameters, _ question: (StoreAPI, QueryParameters) throws -> StoreAPI.Answer
    ) throws -> StoreAPI.Answer? {
        guard let engine = idle.withLock({ $0.popLast() }) else { return nil }
        defer { idle.withLock { $0.append(engine) } }
        guard engine.isQuick(q, foldLimit: Self.foldLimit) else { return nil }
        return try question(engine, q)
    }
}
