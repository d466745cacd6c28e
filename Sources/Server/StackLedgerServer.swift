import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Ledger
import Logging
import NIOCore
import NIOSSL
import Projections
public import SmartStack

/// `stackledger serve`: the store's answers and the page that shows them, over HTTP on
/// loopback, or over TLS with a token on any other address.
public struct StackLedgerServer: Sendable {
    /// How to serve.
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// The token requests must carry; required off loopback.
        public var token: String?
        /// PEM files of the certificate chain and its key; required off loopback.
        public var tlsCertificate: String?
        public var tlsKey: String?
        public var tool = "stackledger"
        /// How many questions are answered at once (each by its own engine): the machine's cores.
        public var answeringThreads = ProcessInfo.processInfo.activeProcessorCount
        /// The most connections open at once: past it, new ones wait in the listening
        /// socket's queue until one closes (a flood cannot exhaust the descriptors).
        public var maxConnections = 256
        /// Seconds a connection may stay open without reading a byte.
        public var idleSeconds = 30
        /// Seconds a request's head may take to arrive, from the connection's opening (the
        /// TLS handshake included) or from the last answer.
        public var headerSeconds = 10

        public init() {}

        /// Whether `host` reaches only this machine.
        public var isLoopback: Bool { ["127.0.0.1", "::1", "localhost", "[::1]"].contains(host.lowercased()) }
    }

    let settings: Settings
    let ledger: Ledger
    let policy: Policy

    public init(settings: Settings, ledger: Ledger, policy: Policy) {
        self.settings = settings
        self.ledger = ledger
        self.policy = policy
    }

    /// The names a request's Host header may give.
    var allowedHosts: Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let host = settings.host.lowercased()
        hosts.insert(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        return hosts
    }

    /// The routes over this store: the page, its assets and the API, as served, with the
    /// answering threads and the quick answers sharing `overviews`.
    func router(overviews: OverviewCache = OverviewCache()) -> Router<BasicRequestContext> {
        let (ledger, policy, tool) = (ledger, policy, settings.tool)
        let api = AnsweringThreads(count: settings.answeringThreads) {
            StoreAPI(ledger: ledger, policy: policy, tool: tool, overviews: overviews)
        }
        let middleware = GuardMiddleware<BasicRequestContext>(
            allowedHosts: allowedHosts, token: settings.token, secure: settings.tlsCertificate != nil)
        // An engine for each event loop that may answer at once.
        let quick = QuickAnswers(
            engines: (0..<max(1, StackLedgerServer.eventLoopsPerCore * settings.answeringThreads)).map { _ in
                StoreAPI(ledger: ledger, policy: policy, tool: tool, overviews: overviews)
            })
        return Routes.router(api: api, quick: quick, ledger: ledger, guard: middleware)
    }

    /// Serves until the process is stopped; `onListening` gets the address once bound.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let (ledger, policy, tool) = (ledger, policy, settings.tool)
        let overviews = OverviewCache()
        let secure = settings.tlsCertificate != nil
        // Every device's overview made before the page asks for it, on a thread of its own.
        let warm = StoreAPI(ledger: ledger, policy: policy, tool: tool, overviews: overviews)
        Thread.detachNewThread {
            for device in (try? warm.projector.devices()) ?? [] { _ = try? warm.overview(device: device) }
        }
        let routes = router(overviews: overviews)
        let headerTimeout = TimeAmount.seconds(Int64(settings.headerSeconds))
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestHeadTimeout(timeout: headerTimeout)],
            idleTimeout: .seconds(Int64(settings.idleSeconds)))
        let server: HTTPServerBuilder
        if let certificate = settings.tlsCertificate, let key = settings.tlsKey {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            let tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            server = try .tls(.http1(configuration: http1), tlsConfiguration: tls)
        } else {
            server = .http1(configuration: http1)
        }
        let scheme = secure ? "https" : "http"
        let host = settings.host
        // Requests are not logged: the page's questions are the examiner's business.
        var logger = Logger(label: "stackledger-serve")
        logger.logLevel = .error
        let app = Application(
            router: routes, server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: settings.port),
                availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("\(scheme)://\(shown):\(port)/")
            }, logger: logger)
        try await app.runService()
    }
}
