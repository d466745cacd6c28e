import RecordFormat

extension ReloadPolicy {
    /// `"atEnd"`, `"never"` or `{"after": T}`; stored as a tag (0, 1, 2) and the time.
    struct Codec: ValueCodec {
        func readValue(_ f: ObjectFields, _ token: Int) throws -> ReloadPolicy {
            switch f.r.token(token).kind {
            case .string:
                return try f.enumValue(token, ["atEnd", "never"]) == "never" ? .never : .atEnd
            case .object:
                var p = try f.object(token)
                guard try p.requireSingleKey("a reload policy") == "after" else {
                    throw p.error("after", "a policy object is {\"after\": T}")
                }
                return .after(try p.time("after"))
            default:
                throw FieldError(token: token, message: "must be \"atEnd\", \"never\" or {\"after\": T}")
            }
        }

        func writeValue(_ w: inout CanonicalWriter, _ value: ReloadPolicy) {
            switch value {
            case .atEnd: w.string("atEnd")
            case .never: w.string("never")
            case .after(let t):
                w.beginObject()
                w.key("after")
                w.time(t)
                w.endObject()
            }
        }

        func encode(_ out: inout BinaryOut, _ value: ReloadPolicy) {
            switch value {
            case .atEnd: out.byte(0)
            case .never: out.byte(1)
            case .after(let t):
                out.byte(2)
                out.time(t)
            }
        }

        func decode(_ b: inout BinaryIn) throws -> ReloadPolicy {
            switch try b.byte() {
            case 0: return .atEnd
            case 1: return .never
            case 2: return .after(try b.time())
            default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a policy tag")
            }
        }

        var type: String { "`\"atEnd\"` \\| `\"never\"` \\| `{\"after\": time}`" }
    }
}

extension RelevanceGroup {
    /// Absent, `"automatic"`, `"ungrouped"` or `{"named": "..."}`; stored as a tag (0 for
    /// absent, then 1, 2, 3) and the name.
    struct Codec: FieldCodec {
        func read(_ f: inout ObjectFields, _ name: StaticString) throws -> RelevanceGroup? {
            guard let t = f.take(name) else { return nil }
            switch f.r.token(t).kind {
            case .string:
                return try f.enumValue(t, ["automatic", "ungrouped"]) == "automatic" ? .automatic : .ungrouped
            case .object:
                var g = try f.object(t)
                guard try g.requireSingleKey("a named group") == "named" else {
                    throw g.error("named", "a group object is {\"named\": \"...\"}")
                }
                return .named(try g.string("named"))
            default:
                throw FieldError(token: t, message: "must be \"automatic\", \"ungrouped\" or {\"named\": \"...\"}")
            }
        }

        func write(_ w: inout CanonicalWriter, _ name: StaticString, _ value: RelevanceGroup?) {
            guard let value else { return }
            w.key(name)
            switch value {
            case .automatic: w.string("automatic")
            case .ungrouped: w.string("ungrouped")
            case .named(let n):
                w.beginObject()
                w.key("named")
                w.string(n)
                w.endObject()
            }
        }

        func encode(_ out: inout BinaryOut, _ value: RelevanceGroup?) {
            switch value {
            case nil: out.byte(0)
            case .automatic: out.byte(1)
            case .ungrouped: out.byte(2)
            case .named(let n):
                out.byte(3)
                out.interned(n)
            }
        }

        func decode(_ b: inout BinaryIn) throws -> RelevanceGroup? {
            switch try b.byte() {
            case 0: return nil
            case 1: return .automatic
            case 2: return .ungrouped
            case 3: return .named(try b.interned())
            default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a group tag")
            }
        }

        var summary: FieldSummary {
            FieldSummary(
                type: "`\"automatic\"` \\| `\"ungrouped\"` \\| `{\"named\": string}`", presence: "optional")
        }
    }
}
