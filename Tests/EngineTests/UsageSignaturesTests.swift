import Testing

@testable import SmartStack

/// A checkpoint lists each day's usage signatures; a restore makes each distinct one once,
/// found again by its bytes.
@Suite("Usage signatures read from a checkpoint")
struct UsageSignaturesTests {
    @Test("equal signatures in different sections are read as one; any difference gives another")
    func equalBytesShareOneSignature() throws {
        let written = [
            UsageSignature(app: "com.example.coffee", intent: "OrderIntent", parameters: ["size": "\"large\""]),
            UsageSignature(app: "com.example.coffee", intent: nil, parameters: [:]),
            UsageSignature(app: "com.example.coffee", intent: "OrderIntent", parameters: ["size": "\"small\""]),
            UsageSignature(
                app: "com.example.coffee", intent: "OrderIntent", parameters: ["size": "\"large\"", "milk": "\"oat\""]),
        ]
        var w = StateWriter()
        for day in 0..<3 {
            // Each day a section with strings of its own, its signatures in another order.
            let order = written.indices.map { (($0 + day) % written.count) }
            w.section(
                StateWriter.section(capacity: 256) { s in
                    s.string("com.example.coffee")
                    s.array(order.map { written[$0] }) { $1.write(&$0) }
                })
        }
        var r = StateReader(w.bytes)
        var signatures = UsageSignatures()
        var read: [[UsageSignature]] = []
        for _ in 0..<3 {
            try r.section { r in
                #expect(try r.string() == "com.example.coffee")
                read.append(try r.array { try signatures.read(&$0) })
            }
        }
        #expect(r.offset == w.bytes.count)
        for (day, list) in read.enumerated() {
            let order = written.indices.map { (($0 + day) % written.count) }
            for (k, signature) in list.enumerated() {
                #expect(signature == written[order[k]])
                // The first day's are in the written order: the same object as the first
                // day's of the same content.
                #expect(signature === read[0][order[k]])
            }
        }
        #expect(Set(read[0].map(ObjectIdentifier.init)).count == written.count)
    }
}
