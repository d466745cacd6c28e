import ArgumentParser
import Ledger

/// An RFC 3339 time given on the command line, parsed once, when the arguments are: a
/// text that is not one is a usage error (64) that names the option and the problem.
struct TimeArgument: Sendable, CustomStringConvertible {
    /// The text as given (messages quote it).
    let text: String
    /// The time it names.
    let timestamp: Timestamp

    /// The text as given.
    var description: String { text }

    /// Why a text is not a time, as the usage error says it.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `text`; the transform of every time option.
    static func parse(_ text: String) throws -> TimeArgument {
        do {
            return TimeArgument(text: text, timestamp: try Timestamp(rfc3339: text))
        } catch {
            throw Invalid(description: error.reason)
        }
    }
}
