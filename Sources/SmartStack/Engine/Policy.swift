import Crypto
import Foundation

/// The decision policy: our model of the Smart Stack, named and versioned.
///
/// Every rule Apple documents is fixed in the engine; every choice Apple leaves
/// undocumented is a parameter here, with a stated default. `smartstack-1` is this
/// project's model, not Apple's algorithm.
public struct Policy: Sendable, Hashable {
    /// The model's name: the defaults' policy is named so.
    public static let baseName = "smartstack-1"
    /// The name of a policy fitted to a device's records (`stackledger calibrate`).
    public static let fittedName = baseName + "-fit"
    /// The policy's version: it changes whenever the engine's behaviour for the same
    /// parameters changes.
    public static let version = 2

    /// The policy's name: `baseName`, or `fittedName` for parameters fitted to a device's
    /// records. Answers cite it, so that a fitted policy is never taken for the defaults.
    public var name: String {
        didSet { digest = Policy.digest(of: parameters, name: name) }
    }

    /// What a fitted policy was fitted on (its file's `calibration`); nil for any other.
    /// Not part of the digest: the name and parameters are.
    public var calibration: PolicyCalibration?

    /// The parameters in force.
    public var parameters: PolicyParameters {
        didSet { digest = Policy.digest(of: parameters, name: name) }
    }

    /// A short digest of the name, version and parameters: it changes with any override.
    /// Worked out when the parameters are set (it encodes them as JSON), not at each use:
    /// every answer and every checkpoint key names it.
    public private(set) var digest: String

    /// The default policy.
    public init(parameters: PolicyParameters = PolicyParameters(), name: String = Policy.baseName) {
        self.name = name
        self.parameters = parameters
        self.digest = Policy.digest(of: parameters, name: name)
    }

    private static func digest(of parameters: PolicyParameters, name: String) -> String {
        var text = "\(name)\n\(Policy.version)\n"
        text += parametersJSON(parameters, pretty: false)
        let hash = SHA256.hash(data: Array(text.utf8))
        return "sha256:" + hash.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The parameters as JSON, keys sorted.
    public func parametersJSON(pretty: Bool) -> String {
        Policy.parametersJSON(parameters, pretty: pretty)
    }

    private static func parametersJSON(_ parameters: PolicyParameters, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Optional caps are written as null (unlimited) rather than left out.
        guard let data = try? encoder.encode(parameters) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads overrides from a JSON file: either `{"parameters": {...}}` or the bare
    /// parameter object. Unknown parameter names are an error, so a typo never passes.
    /// - Throws: `PolicyError` naming the file and the parameter.
    public static func load(overridesAt path: String) throws -> Policy {
        guard var data = FileManager.default.contents(atPath: path) else {
            throw PolicyError("cannot read the policy file \(path); check the path", unreadable: true)
        }
        // A UTF-8 byte order mark at the start, as some editors write, is not part of the JSON.
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        data = Data(data)
        if let problem = Policy.syntaxProblem(in: Array(data)) {
            throw PolicyError(
                "\(path):\(problem.line):\(problem.column): not JSON: \(problem.message); fix the file, or start from `stackledger policy --json`"
            )
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw PolicyError("\(path) is not JSON: \(error.localizedDescription)")
        }
        guard var dict = object as? [String: Any] else {
            throw PolicyError("\(path): the policy must be a JSON object")
        }
        let name = dict["name"] as? String ?? Policy.baseName
        guard name == Policy.baseName || name == Policy.fittedName else {
            throw PolicyError(
                "\(path): policy \"\(name)\" is not \(Policy.baseName) (or \(Policy.fittedName), its parameters fitted by `stackledger calibrate`); this engine implements only \(Policy.baseName)"
            )
        }
        let calibration = (dict["calibration"] as? [String: Any]).flatMap(PolicyCalibration.init(json:))
        if let inner = dict["parameters"] as? [String: Any] {
            dict = inner
        } else {
            for key in ["name", "version", "digest", "tool", "calibration"] { dict.removeValue(forKey: key) }
        }
        let known = Set(PolicyParameters.CodingKeys.allCases.map(\.rawValue))
        for key in dict.keys.sorted() where !known.contains(key) {
            throw PolicyError("\(path): unknown policy parameter \"\(key)\"; `stackledger policy` lists them")
        }
        do throws(PolicyError) {
            for key in dict.keys.sorted() { try PolicyParameters.checkRange(key, dict[key]!) }
        } catch {
            throw PolicyError("\(path): \(error.message)")
        }
        // Merge onto the defaults, so a file may name only what it changes.
        let defaults =
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(PolicyParameters())) as! [String: Any]
        let merged = defaults.merging(dict) { _, new in new }
        do {
            let params = try JSONDecoder().decode(
                PolicyParameters.self, from: JSONSerialization.data(withJSONObject: merged))
            try params.validate()
            var policy = Policy(parameters: params, name: name)
            policy.calibration = name == Policy.fittedName ? calibration : nil
            return policy
        } catch let policyError as PolicyError {
            throw PolicyError("\(path): \(policyError.message)")
        } catch let DecodingError.typeMismatch(_, ctx), let DecodingError.valueNotFound(_, ctx) {
            let field = ctx.codingPath.map(\.stringValue).joined(separator: ".")
            throw PolicyError(
                "\(path): parameter \"\(field)\" has the wrong type; `stackledger policy --json` shows the expected form"
            )
        } catch {
            throw PolicyError("\(path): \(error)")
        }
    }
}

extension Policy {
    /// Where a policy file's text stops being JSON (1-based line and column, counted in
    /// characters), and why; nil when it is one JSON value.
    static func syntaxProblem(in bytes: [UInt8]) -> (line: Int, column: Int, message: String)? {
        let limits = JSONTape.Limits(maximumDepth: 64, maximumStringBytes: 1 << 20)
        let error: JSONTape.SyntaxError? = bytes.withUnsafeBytes { text in
            do throws(JSONTape.SyntaxError) {
                try JSONTape().parse(text, limits: limits)
                return nil
            } catch {
                return error
            }
        }
        guard let error else { return nil }
        let before = bytes[..<min(error.offset, bytes.count)]
        let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        // Continuation bytes of UTF-8 do not start a character.
        let column = before[lineStart...].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        // The tokenizer speaks of NDJSON lines; a policy is a whole file.
        return (line, column, error.message.replacingOccurrences(of: "the line ends", with: "the file ends"))
    }
}

/// A policy file that cannot be used.
public struct PolicyError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to do.
    public var message: String
    /// Whether the file could not be read at all (rather than read and found wrong).
    public var unreadable = false
    /// Creates an error.
    public init(_ message: String, unreadable: Bool = false) {
        self.message = message
        self.unreadable = unreadable
    }
    public var description: String { message }
}
