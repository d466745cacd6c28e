public import HTTPTypes
import SmartStack

/// An answer the API gives instead of a document: its status and
/// `{"error": {"code", "message", "parameter"}}`.
public struct APIError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var parameter: String?

    public init(_ status: HTTPResponse.Status, code: String, _ message: String, parameter: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.parameter = parameter
    }

    /// A bad or missing query parameter (400).
    static func badParameter(_ name: String, _ message: String) -> APIError {
        APIError(.badRequest, code: "bad-parameter", "\(name): \(message)", parameter: name)
    }

    /// The store cannot answer: it fails its check or cannot be read (503).
    static func storeUnavailable(_ message: String) -> APIError {
        APIError(.serviceUnavailable, code: "store-unavailable", message)
    }

    /// The body, one JSON document and a newline.
    var body: [UInt8] {
        var w = CanonicalWriter(capacity: 256)
        w.beginObject()
        w.key("error")
        w.beginObject()
        w.key("code")
        w.string(code)
        w.key("message")
        w.string(message)
        w.key("parameter")
        if let parameter { w.string(parameter) } else { w.null() }
        w.endObject()
        w.endObject()
        w.bytes.append(0x0A)
        return w.bytes
    }
}
