/// How a message names a store's devices: the first ten, and how many more, so that a store
/// of a million devices does not answer a usage error with megabytes.
package enum DeviceList {
    /// The most devices a message names.
    package static let shown = 10

    /// `names` joined with commas, cut after `shown` with the count of the rest.
    package static func some(_ names: [String]) -> String {
        guard names.count > shown else { return names.joined(separator: ", ") }
        return names.prefix(shown).joined(separator: ", ")
            + " and \(names.count - shown) more (`stackledger stats` lists them)"
    }
}
