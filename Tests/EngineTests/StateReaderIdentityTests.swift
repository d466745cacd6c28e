import Testing

@testable import SmartStack

/// A checkpoint reader numbers the strings it reads so that what is made from a string
/// can be found again by its number: two numbers may be equal only for equal bytes.
@Suite("String identities of a checkpoint reader")
struct StateReaderIdentityTests {
    @Test("equal strings get one identity across sections, written out or by tag; different strings never share one")
    func identitiesFollowBytes() throws {
        let names = [
            "item", "item-0", "item-1", "Configure1Intent", "Configure2Intent", "", "fifteen-bytes-x",
            "sixteen-bytes-xy",
        ]
        var w = StateWriter()
        for _ in 0..<2 {
            w.section(StateWriter.section(capacity: 64) { s in for name in names + names { s.string(name) } })
        }
        var r = StateReader(w.bytes)
        var seen: [String: Int] = [:]
        var identities: [Int: String] = [:]
        for _ in 0..<2 {
            try r.section { r in
                for (k, name) in (names + names).enumerated() {
                    // Half the reads ask for no identity, as `string()` does for most fields.
                    let read = k % 3 == 0 ? (try r.string(), nil) : try r.stringWithIdentity()
                    #expect(read.0 == name)
                    guard let identity = read.1 else { continue }
                    #expect(seen[name, default: identity] == identity)
                    #expect(identities[identity, default: name] == name)
                    seen[name] = identity
                    identities[identity] = name
                }
            }
        }
        #expect(seen.count == names.count)
        #expect(r.offset == w.bytes.count)
    }
}
