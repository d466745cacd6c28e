import Foundation

extension DeviceEngine {
    /// The version of the engine's behaviour and state layout: part of every checkpoint's
    /// key, so a new engine never reuses an old checkpoint.
    public static let engineVersion = 1

    /// The engine's whole state as bytes; `init(checkpoint:policy:)` restores it exactly.
    public func checkpoint() throws -> [UInt8] {
        let encoder = JSONEncoder()
        return Array(try encoder.encode(state))
    }

    /// Restores an engine from `checkpoint()` bytes, under the policy it was made with.
    /// - Throws: `DecodingError` for bytes that are not a checkpoint.
    public init(checkpoint bytes: [UInt8], policy: Policy) throws {
        self.policy = policy
        self.state = try JSONDecoder().decode(DeviceModel.self, from: Data(bytes))
    }
}
