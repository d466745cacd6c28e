import Foundation
import HTTPTypes
import Hummingbird
import Ledger
import Logging
import NIOCore
import NIOEmbedded
import SmartStack
import StackLedgerCLI
import StackLedgerTesting
import Synchronization
import Testing

@testable import Server

/// The API's routes answered in-process, as Hummingbird tests its routers: a request goes
/// to the router's responder and the response is read back, with no socket and no process.
/// The subprocess tests keep what needs a served port (TLS, connection limits, pushes).
@Suite("serve's routes, in-process", .serialized)
struct ServeRouteTests {
    /// A response: status, headers and body.
    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: String
        /// The body as a JSON object.
        func object() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
        }
    }

    /// Collects a response's body.
    struct Collector: ResponseBodyWriter {
        final class Bytes: Sendable { let buffer = Mutex(ByteBuffer()) }
        let bytes = Bytes()
        func write(_ part: ByteBuffer) async throws { _ = bytes.buffer.withLock { $0.writeImmutableBuffer(part) } }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    /// Sends `GET path` (with `host` as the Host header) to `router`.
    func get(_ router: Router<BasicRequestContext>, _ path: String, host: String = "localhost") async throws -> Answer {
        let responder = router.buildResponder()
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: host, path: path),
            body: RequestBody(buffer: ByteBuffer()))
        let context = BasicRequestContext(
            source: ApplicationRequestContextSource(
                channel: NIOAsyncTestingChannel(), logger: Logger(label: "serve-routes")))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        let collector = Collector()
        try await response.body.write(collector)
        return Answer(
            status: response.status, headers: response.headers,
            body: collector.bytes.buffer.withLock { String(buffer: $0) })
    }

    /// A JSON document without its `check` (the CLI's verification; the API's store is checked once).
    func withoutCheck(_ text: String) throws -> NSDictionary {
        var d = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        d["check"] = nil
        return d as NSDictionary
    }

    @Test("state, why and replay answer the CLI's JSON; events page by X-Next-After; the devices are listed")
    func answersAreTheCLIs() async throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try TimelineExportTests().store(dir)
        var settings = StackLedgerServer.Settings()
        settings.tool = StackLedgerCommand.toolVersion
        let router = StackLedgerServer(settings: settings, ledger: try Ledger(path: dir.store), policy: Policy())
            .router()
        let at = "2021-11-02T10:25:00Z"
        let state = try await get(router, "/api/state?device=phone&at=\(at)")
        let cliState = try CLI.run(["state", "--store", dir.store, "--device", "phone", "--at", at, "--json"])
        #expect(state.status == .ok && cliState.status == 0)
        #expect(try withoutCheck(state.body) == withoutCheck(cliState.stdout))
        #expect(state.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
        #expect(state.headers[.accessControlAllowOrigin] == nil)

        let why = try await get(router, "/api/why?device=phone&at=\(at)&stack=STACK-1")
        let cliWhy = try CLI.run([
            "why", "--store", dir.store, "--device", "phone", "--stack", "STACK-1", "--at", at, "--json",
        ])
        #expect(try why.status == .ok && withoutCheck(why.body) == withoutCheck(cliWhy.stdout))

        let replay = try await get(
            router, "/api/replay?device=phone&from=2021-11-02T00:00:00Z&to=2021-11-03T00:00:00Z&disagreements=true")
        let cliReplay = try CLI.run([
            "replay", "--store", dir.store, "--device", "phone", "--from", "2021-11-02T00:00:00Z", "--to",
            "2021-11-03T00:00:00Z", "--disagreements", "--json",
        ])
        #expect(replay.status == .ok && !replay.body.isEmpty && replay.body == cliReplay.stdout)

        let page = try await get(router, "/api/events?device=phone&limit=5")
        let lines = page.body.split(separator: "\n")
        #expect(page.status == .ok && lines.count == 5)
        let next = try #require(page.headers[HTTPField.Name("X-Next-After")!])
        let after = try await get(router, "/api/events?device=phone&limit=5&after=\(next)")
        func seq(_ line: Substring?) throws -> Int {
            let text = try #require(line)
            let event = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return try #require(event["seq"] as? Int)
        }
        #expect(try seq(after.body.split(separator: "\n").first) > seq(lines.last))

        let devices = try await get(router, "/api/devices")
        #expect(
            (try devices.object()["devices"] as? [[String: Any]])?.compactMap { $0["device"] as? String } == [
                "phone", "default",
            ])
    }

    @Test("a bad parameter, an unknown path and a foreign host are answered in the API's error shape")
    func errorsHaveTheirShape() async throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try TimelineExportTests().store(dir)
        let router = StackLedgerServer(settings: .init(), ledger: try Ledger(path: dir.store), policy: Policy())
            .router()
        func error(_ answer: Answer) throws -> [String: Any] {
            try #require(try answer.object()["error"] as? [String: Any])
        }
        let badTime = try await get(router, "/api/state?device=phone&at=yesterday")
        #expect(badTime.status == .badRequest)
        #expect(
            try error(badTime)["parameter"] as? String == "at" && error(badTime)["code"] as? String == "bad-parameter")
        let tooMany = try await get(router, "/api/events?device=phone&limit=10001")
        #expect(try tooMany.status == .badRequest && error(tooMany)["parameter"] as? String == "limit")
        let nowhere = try await get(router, "/nowhere")
        #expect(try nowhere.status == .notFound && error(nowhere)["code"] as? String == "not-found")
        let foreign = try await get(router, "/api/devices", host: "evil.example:80")
        #expect(try foreign.status == .misdirectedRequest && error(foreign)["code"] as? String == "bad-host")
    }
}
