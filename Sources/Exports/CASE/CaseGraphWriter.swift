import Crypto
package import SmartStack

/// Writes a CASE/UCO JSON-LD document (CASE 1.5): the context of the prefixes used, then
/// the graph's nodes one by one, handed to `flush` in pieces so that a large bundle is
/// never held whole.
package struct CaseGraphWriter {
    private var w = CanonicalWriter(capacity: 1 << 16)
    private var first = true
    private let flush: ([UInt8]) throws -> Void

    /// The prefixes of the bundle's IRIs and of the ontologies it uses.
    static let context: [(String, String)] = [
        ("kb", "urn:stackledger:"),
        ("case-investigation", "https://ontology.caseontology.org/case/investigation/"),
        ("uco-action", "https://ontology.unifiedcyberontology.org/uco/action/"),
        ("uco-configuration", "https://ontology.unifiedcyberontology.org/uco/configuration/"),
        ("uco-core", "https://ontology.unifiedcyberontology.org/uco/core/"),
        ("uco-observable", "https://ontology.unifiedcyberontology.org/uco/observable/"),
        ("uco-tool", "https://ontology.unifiedcyberontology.org/uco/tool/"),
        ("uco-types", "https://ontology.unifiedcyberontology.org/uco/types/"),
        ("uco-vocabulary", "https://ontology.unifiedcyberontology.org/uco/vocabulary/"),
        ("xsd", "http://www.w3.org/2001/XMLSchema#"),
    ]

    /// Starts the document.
    package init(flush: @escaping ([UInt8]) throws -> Void) {
        self.flush = flush
        w.beginObject()
        w.key("@context")
        w.beginObject()
        for (prefix, iri) in Self.context {
            w.key(prefix)
            w.string(iri)
        }
        w.endObject()
        w.key("@graph")
        w.beginArray()
    }

    /// Adds one node: `@id`, `@type`, then the members `body` writes.
    package mutating func node(_ id: String, _ type: String, _ body: (inout CanonicalWriter) -> Void) throws {
        w.beginObject()
        w.key("@id")
        w.string(id)
        w.key("@type")
        w.string(type)
        body(&w)
        w.endObject()
        if w.bytes.count >= 1 << 16 {
            try flush(w.bytes)
            w.bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Ends the document and hands over the rest.
    package mutating func finish() throws {
        w.endArray()
        w.endObject()
        w.bytes.append(0x0A)
        try flush(w.bytes)
        w.bytes.removeAll()
    }

    /// A stable IRI: the kind of node, then a name-based UUID (version 5 layout) made from
    /// a SHA-256 of what identifies the node, so the same thing gets the same IRI in every
    /// bundle.
    package static func iri(_ kind: String, _ identity: String) -> String {
        var bytes = Array(SHA256.hash(data: Array(identity.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).leftPadded }
        let groups = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }
        return "kb:\(kind)-" + groups.joined(separator: "-")
    }
}

extension CanonicalWriter {
    /// `"key": {"@id": iri}`.
    package mutating func reference(_ key: String, _ iri: String) {
        self.key(key)
        references([iri])
    }

    /// `[{"@id": iri}, ...]`.
    package mutating func references(_ iris: [String]) {
        if iris.count == 1 {
            beginObject()
            self.key("@id")
            string(iris[0])
            endObject()
            return
        }
        beginArray()
        for iri in iris {
            beginObject()
            self.key("@id")
            string(iri)
            endObject()
        }
        endArray()
    }

    /// `"key": {"@type": type, "@value": value}`.
    package mutating func typed(_ key: String, _ type: String, _ value: String) {
        self.key(key)
        beginObject()
        self.key("@type")
        string(type)
        self.key("@value")
        string(value)
        endObject()
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
