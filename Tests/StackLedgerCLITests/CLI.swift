import Foundation
import SmartStack
import StackLedgerCLI
import StackLedgerTesting

/// Runs the built `stackledger` executable as a user would.
enum CLI {
    /// The executable next to the test bundle.
    static let executable: String = {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("stackledger").path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "stackledger"
            ).path,
            Fixtures.repositoryRoot + "/.build/debug/stackledger",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @discardableResult
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], timeout: Double = 300
    ) throws -> Result {
        try run(executable: executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
    }

    /// Runs the command in this process, as Hummingbird's tests call their router: for
    /// what an answer says. Exit codes a shell sees, standard input and signals are tested
    /// with `run`, on the executable.
    @discardableResult
    static func call(_ arguments: [String]) -> Result {
        let outcome = StackLedgerCommand.run(arguments: arguments)
        return Result(
            status: outcome.status, stdout: String(decoding: outcome.output, as: UTF8.self),
            stderr: String(decoding: outcome.error, as: UTF8.self))
    }

    /// Runs any program with `arguments`, feeding it `stdin`, and collects its exit status
    /// and output.
    @discardableResult
    /// A child still running after `timeout` seconds is killed (SIGKILL), so that a hang
    /// fails its test instead of stopping the suite.
    static func run(
        executable path: String, _ arguments: [String], stdin: String? = nil,
        environment: [String: String] = [:], timeout: Double = 300
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        // Both streams are drained at once, and the input written beside them: a child that
        // fills one pipe while the other is read would otherwise wait forever.
        let errReader = PipeDrain(err.fileHandleForReading)
        let writer = Thread {
            if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errReader.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    /// Everything the pipe held, once its writer closed it.
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// A temporary directory for one test.
/// A synthetic workload in canonical form.
func workload(_ events: Int, seed: UInt64 = 1) -> String {
    var config = WorkloadGenerator.Configuration()
    config.events = events
    config.seed = seed
    var generator = WorkloadGenerator(config)
    var lines = [String]()
    generator.generate { lines.append($0.canonicalJSON) }
    return lines.joined(separator: "\n") + "\n"
}
