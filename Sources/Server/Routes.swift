import HTTPTypes
import Hummingbird
import Ledger

/// The routes: the page and its assets, and the JSON API (docs/queries.md, "serve").
enum Routes {
    static func router(
        api: AnsweringThreads, quick: QuickAnswers, ledger: Ledger,
        guard middleware: GuardMiddleware<BasicRequestContext>
    ) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: middleware)
        router.get("/") { _, _ in asset(PageAssets.html, "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in asset(PageAssets.script, "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in asset(PageAssets.style, "text/css; charset=utf-8") }
        // The page has no icon; browsers ask for one anyway.
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        /// A question of the API: its parameters, answered by one of the answering threads,
        /// or, for a `quick` kind of question, where it came in when it is quick.
        func ask(
            _ path: RouterPath, quick kind: Bool = false,
            _ question: @escaping @Sendable (StoreAPI, QueryParameters) throws -> StoreAPI.Answer
        ) {
            router.get(path) { request, _ in
                let q = parameters(request)
                if kind, let answer = try quick.answer(q, question) { return response(answer) }
                return response(try await api.answer { try question($0, q) })
            }
        }
        ask("/api/devices") { store, _ in try store.devices() }
        ask("/api/state", quick: true) { try $0.state($1) }
        ask("/api/why", quick: true) { try $0.why($1) }
        ask("/api/replay") { try $0.replay($1) }
        ask("/api/events") { try $0.events($1) }
        ask("/api/report") { try $0.report($1) }
        ask("/api/overview") { try $0.overview($1) }
        ask("/api/search") { try $0.search($1) }
        router.get("/api/commits") { _, _ in CommitStream.response(ledger: ledger) }
        return router
    }

    static func parameters(_ request: Request) -> QueryParameters {
        QueryParameters(request.uri.queryParameters.map { (String($0.key), String($0.value)) })
    }

    static func asset(_ text: String, _ type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func response(_ answer: StoreAPI.Answer) -> Response {
        var headers: HTTPFields = [.contentType: answer.contentType]
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
