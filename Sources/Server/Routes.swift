import HTTPTypes
import Hummingbird

/// The routes: the page and its assets, and the JSON API (docs/queries.md, "serve").
enum Routes {
    static func router(api: StoreAPI, guard middleware: GuardMiddleware<BasicRequestContext>) -> Router<
        BasicRequestContext
    > {
        let router = Router()
        router.add(middleware: middleware)
        router.get("/") { _, _ in asset(PageAssets.html, "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in asset(PageAssets.script, "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in asset(PageAssets.style, "text/css; charset=utf-8") }
        router.get("/api/devices") { _, _ in response(try await api.devices()) }
        router.get("/api/state") { request, _ in response(try await api.state(parameters(request))) }
        router.get("/api/why") { request, _ in response(try await api.why(parameters(request))) }
        router.get("/api/replay") { request, _ in response(try await api.replay(parameters(request))) }
        router.get("/api/events") { request, _ in response(try await api.events(parameters(request))) }
        router.get("/api/report") { request, _ in response(try await api.report(parameters(request))) }
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
