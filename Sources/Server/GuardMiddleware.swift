import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// What every request passes before it reaches a route, since the server serves evidence:
/// the Host header must name this server (against DNS rebinding), a token when one is set
/// (once as `?token=` on the page, exchanged for an HttpOnly, SameSite=Strict cookie; or
/// `Authorization: Bearer`), and every answer carries a Content-Security-Policy that allows
/// only the page's own assets. No CORS header is ever sent. Errors answer in the API's shape.
struct GuardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Host names a request may name (lowercased, without the port).
    let allowedHosts: Set<String>
    /// The token, when the server requires one.
    let token: String?
    /// Whether the server speaks TLS (the cookie is then `Secure`).
    let secure: Bool

    static var cookieName: String { "stackledger_session" }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            try checkHost(request)
            if let exchanged = try exchangeToken(request) {
                response = exchanged
            } else {
                try checkToken(request)
                response = try await next(request, context)
            }
        } catch let error as APIError {
            response = Self.errorResponse(error)
        } catch let error as HTTPError where error.status == .notFound {
            response = Self.errorResponse(APIError(.notFound, code: "not-found", "no such path: \(request.uri.path)"))
        } catch let error as HTTPError {
            response = Self.errorResponse(APIError(error.status, code: "http", error.body ?? "\(error.status)"))
        }
        for (name, value) in SecurityHeaders.all { response.headers[name] = value }
        return response
    }

    static func errorResponse(_ error: APIError) -> Response {
        Response(
            status: error.status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: error.body)))
    }

    /// The Host header names this server, else 421 (or 400 when there is none).
    func checkHost(_ request: Request) throws(APIError) {
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw APIError(.badRequest, code: "bad-host", "the request names no Host")
        }
        // A second Host header (the first became the authority) could name another server
        // to a proxy that reads the last one: refused.
        if request.headers.contains(where: { $0.name.canonicalName == "host" }) {
            throw APIError(.badRequest, code: "bad-host", "the request names more than one Host")
        }
        var host = authority.lowercased()
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            host = String(host[...end])
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        guard allowedHosts.contains(host) else {
            throw APIError(
                .misdirectedRequest, code: "bad-host",
                "Host \(authority) is not this server's name; open it as localhost, 127.0.0.1 or its --host name")
        }
    }

    /// The session value a cookie holds: a digest of the token, never the token itself.
    static func session(_ token: String) -> String {
        SHA256.hash(data: Array("stackledger session \(token)".utf8)).map { String($0, radix: 16) }.joined()
    }

    /// `/?token=T`: a correct token becomes a cookie and the page is reloaded without it.
    func exchangeToken(_ request: Request) throws(APIError) -> Response? {
        guard let token, let offered = request.uri.queryParameters["token"].map(String.init) else { return nil }
        guard Self.constantTimeEqual(offered, token) else {
            throw APIError(.unauthorized, code: "bad-token", "the token is not this server's", parameter: "token")
        }
        let cookie =
            "\(Self.cookieName)=\(Self.session(token)); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
        return Response(status: .seeOther, headers: [.location: "/", .setCookie: cookie])
    }

    /// With a token set, a request carries it as a bearer token or the session cookie.
    func checkToken(_ request: Request) throws(APIError) {
        guard let token else { return }
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            Self.constantTimeEqual(String(authorization.dropFirst(7)), token)
        {
            return
        }
        let expected = Self.session(token)
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == Self.cookieName, Self.constantTimeEqual(String(parts[1]), expected) {
                    return
                }
            }
        }
        throw APIError(
            .unauthorized, code: "token-required",
            "this server requires its token: open the page once as /?token=..., or send Authorization: Bearer")
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The headers every answer carries.
enum SecurityHeaders {
    static let all: [(HTTPField.Name, String)] = [
        (
            .contentSecurityPolicy,
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"),
        (HTTPField.Name("Referrer-Policy")!, "no-referrer"),
        (.cacheControl, "no-store"),
    ]
}
