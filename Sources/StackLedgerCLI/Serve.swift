import ArgumentParser
import Dispatch
import Foundation
import Ledger
import Server
import SmartStack
import Synchronization

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the store's timeline in the browser, and its answers as a JSON API.",
        discussion: """
            Never changes the log (it may write engine checkpoints, as any query does), and keeps \
            serving while another process ingests: each request reads the newest commit. Loopback \
            only by default. Any other --host needs both TLS (--tls-cert, --tls-key) and a token, \
            read from --token-file or $STACKLEDGER_TOKEN, never from the command line. The API \
            (docs/queries.md, "serve") answers with the CLI's own JSON.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The address to listen on (loopback unless TLS and a token are given).") var host = "127.0.0.1"
    @Option(help: "The port (0: any free port, printed when listening).") var port = 8080
    @Option(help: "A PEM file of the TLS certificate chain.") var tlsCert: String?
    @Option(help: "A PEM file of the TLS private key.") var tlsKey: String?
    @Option(help: "A file holding the token requests must carry (else $STACKLEDGER_TOKEN).") var tokenFile: String?
    @Option(help: "The most connections open at once (1-100000); past it, new ones wait until one closes.")
    var maxConnections = 256
    @Option(help: "Seconds a connection may stay open without sending a byte (1-3600).") var idleTimeout = 30
    @Option(help: "Seconds a request's head may take to arrive, a TLS handshake included (1-600).")
    var headerTimeout = 10
    @Option(
        name: .customLong("policy"),
        help: ArgumentHelp("Override policy parameters from a JSON file.", valueName: "file")) var policyFile: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port): use 0 to 65535") }
        guard (1...100_000).contains(maxConnections) else {
            throw ValidationError("--max-connections \(maxConnections): use 1 to 100000")
        }
        guard (1...3_600).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout \(idleTimeout): use 1 to 3600")
        }
        guard (1...600).contains(headerTimeout) else {
            throw ValidationError("--header-timeout \(headerTimeout): use 1 to 600")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both, or neither")
        }
    }

    /// A secret's file that users other than its owner can read is refused, as ssh refuses
    /// a private key: naming the mode and the fix.
    static func refuseShared(_ path: String, option: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        let mode = st.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw fail(
                "\(option) \(path): its mode is \(String(mode, radix: 8)), so other users can read it; a secret must be readable by its owner alone (chmod 600 \(path))",
                code: ExitCodes.usage)
        }
    }

    /// The token: the file's first line, else `$STACKLEDGER_TOKEN`.
    func token() throws -> String? {
        if let tokenFile {
            try Self.refuseShared(tokenFile, option: "--token-file")
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw fail("--token-file \(tokenFile): cannot read the file", code: ExitCodes.ioError)
            }
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard line.count >= 16 else {
                throw fail("--token-file \(tokenFile): the token must be at least 16 characters", code: ExitCodes.usage)
            }
            return line
        }
        guard let env = ProcessInfo.processInfo.environment["STACKLEDGER_TOKEN"], !env.isEmpty else { return nil }
        guard env.count >= 16 else {
            throw fail("STACKLEDGER_TOKEN: the token must be at least 16 characters", code: ExitCodes.usage)
        }
        return env
    }

    func run() throws {
        var settings = StackLedgerServer.Settings()
        settings.host = host
        settings.port = port
        settings.token = try token()
        settings.tlsCertificate = tlsCert
        settings.tlsKey = tlsKey
        if let tlsKey { try Self.refuseShared(tlsKey, option: "--tls-key") }
        settings.tool = StackLedgerCommand.toolVersion
        settings.maxConnections = maxConnections
        settings.idleSeconds = idleTimeout
        settings.headerSeconds = headerTimeout
        if !settings.isLoopback && (settings.tlsCertificate == nil || settings.token == nil) {
            throw fail(
                "--host \(host) is not loopback: serving evidence beyond this machine needs --tls-cert and --tls-key, and a token from --token-file or STACKLEDGER_TOKEN",
                code: ExitCodes.usage)
        }
        let policy = try loadPolicy(policyFile)
        let ledger = try openForQueries(storeOptions)
        let server = StackLedgerServer(settings: settings, ledger: ledger, policy: policy)
        let hasToken = settings.token != nil
        let failure = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run { url in
                    printError(
                        "serving \(url)" + (hasToken ? " (open it once as \(url)?token=... with your token)" : ""))
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        done.wait()
        if let message = failure.withLock({ $0 }) {
            throw fail("cannot serve on \(host):\(port): \(message)", code: ExitCodes.ioError)
        }
    }
}
