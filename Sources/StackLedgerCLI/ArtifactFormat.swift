import ArgumentParser
import Importers

/// The artifact formats `import` reads, as a command-line argument: `--help` lists them,
/// and any other word is a usage error (64).
enum ArtifactFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case segb
    case knowledgec
    case powerlog
    case iconstate
    case atx
    case homescreenpages
    case extraction

    /// The importer's format; nil for a whole extraction, which runs every importer.
    var importFormat: ImportRun.Format? {
        switch self {
        case .extraction: return nil
        case .segb: return .segb
        case .knowledgec: return .knowledgec
        case .powerlog: return .powerlog
        case .iconstate: return .iconstate
        case .atx: return .atx
        case .homescreenpages: return .homescreenpages
        }
    }
}
