import Testing

@testable import Server

/// The queue of questions `serve` answers: under a steady load it never empties, and it must
/// still not hold the questions it has handed out.
@Suite("serve's queue of questions")
struct JobQueueTests {
    final class Token: Sendable {}

    struct Weak {
        weak var token: Token?
    }

    @Test("first in, first out; a job taken is released and the slots stay few, though the queue never empties")
    func takenJobsAreReleased() {
        var queue = AnsweringThreads.JobQueue()
        var tokens = [Weak]()
        for _ in 0..<16 {
            let token = Token()
            tokens.append(Weak(token: token))
            queue.push { _ in _ = token }
        }
        // 16 clients always waiting: each answer is followed by the next question.
        for _ in 0..<10_000 {
            let job = queue.pop()
            #expect(job != nil)
            let token = Token()
            tokens.append(Weak(token: token))
            queue.push { _ in _ = token }
        }
        #expect(tokens.prefix(10_000).allSatisfy { $0.token == nil }, "jobs taken are still held")
        #expect(tokens.dropFirst(10_000).allSatisfy { $0.token != nil }, "jobs waiting were lost")
        #expect(queue.slots <= 160, "\(queue.slots) slots for 16 jobs waiting")
        var rest = 0
        while queue.pop() != nil { rest += 1 }
        #expect(rest == 16 && queue.slots == 0)
        #expect(tokens.allSatisfy { $0.token == nil })
    }
}
