// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "StackLedger",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "stackledger", targets: ["stackledger"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "SmartStack", targets: ["SmartStack"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "Importers", targets: ["Importers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .target(
            name: "LMDBKit",
            dependencies: ["CLMDB"],
            swiftSettings: strictSettings
        ),
        // CRC-32C with the processor's instruction where it has one, and ISA-L's for long
        // buffers (libisal-dev, as CIsal).
        .target(name: "CChecksum", linkerSettings: [.linkedLibrary("isal")]),
        // The record format shared by storage and domain: times, envelopes and provenance,
        // index keys, byte readers and writers, the payload protocol, a stored record's view.
        .target(
            name: "RecordFormat",
            swiftSettings: strictSettings
        ),
        .target(
            name: "Ledger",
            dependencies: [
                "RecordFormat",
                "LMDBKit",
                "CChecksum",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SmartStack",
            dependencies: ["RecordFormat", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CSystemZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Intel's ISA-L: gzip's inflate several times as fast as zlib's (a `.tar.gz` extraction).
        .systemLibrary(
            name: "CIsal",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        // LZ4's block format: a checkpoint that stands alone is stored compressed
        // (liblz4-dev), and restored at several GB/s.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // The one seam to SQLite: connections that read evidence and write exports.
        .target(
            name: "SQLiteKit",
            dependencies: ["CSQLite"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Importers",
            dependencies: [
                "Ledger",
                "SmartStack",
                "Ingestion",
                "SQLiteKit",
                "CSQLite",
                "CSystemZlib",
                "CIsal",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // Every executable allocates through mimalloc (see `ProcessAllocator`).
        .systemLibrary(
            name: "CMimalloc",
            providers: [.apt(["libmimalloc-dev"])]
        ),
        .target(
            name: "Allocator",
            dependencies: ["CMimalloc"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Projections",
            dependencies: [
                "Ledger",
                "SmartStack",
                "CLZ4",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // Ingest as a library: validation of the whole input, spooling, id runs, line reading.
        .target(
            name: "Ingestion",
            dependencies: ["Ledger", "SmartStack"],
            swiftSettings: strictSettings
        ),
        // Every explanation and output of the engine's decisions: why and why-not, what-if,
        // disagreements with the device's own records, text and JSON answers, the report.
        .target(
            name: "Forensics",
            dependencies: ["Ledger", "SmartStack", "Projections"],
            swiftSettings: strictSettings
        ),
        // What goes out to the examiner's tools: Timesketch timelines, SQLite databases,
        // CASE/UCO provenance bundles.
        .target(
            name: "Exports",
            dependencies: [
                "Ledger", "SmartStack", "Projections", "Forensics", "SQLiteKit",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // `stackledger serve`: the same store and engine over HTTP, with the page that shows them.
        .target(
            name: "Server",
            dependencies: [
                "Ledger", "SmartStack", "Projections", "Forensics",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StackLedgerCLI",
            dependencies: [
                "Server",
                "Exports",
                "Forensics",
                "Ingestion",
                "SQLiteKit",
                "Ledger",
                "LMDBKit",
                "SmartStack",
                "Projections",
                "Importers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "stackledger",
            dependencies: ["StackLedgerCLI", "Allocator", "Server"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StackLedgerTesting",
            dependencies: ["SmartStack", "Ledger", "Projections"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "stackledger-workload",
            dependencies: [
                "StackLedgerTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LMDBKitTests",
            dependencies: ["LMDBKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RecordFormatTests",
            dependencies: ["RecordFormat"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LedgerTests",
            dependencies: ["Ledger", "LMDBKit", "Projections", "StackLedgerTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SmartStackTests",
            dependencies: ["SmartStack", "Ledger", "StackLedgerTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EngineTests",
            dependencies: ["SmartStack", "Forensics", "Ledger", "StackLedgerTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: ["SmartStack", "Ledger", "Projections", "StackLedgerTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ImporterTests",
            dependencies: [
                "Importers", "SmartStack", "Ledger", "LMDBKit", "StackLedgerTesting", "FuzzOracles",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SQLiteKitTests",
            dependencies: ["SQLiteKit", "StackLedgerTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IngestionTests",
            dependencies: ["Ingestion", "Ledger", "StackLedgerTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StackLedgerCLITests",
            dependencies: [
                "StackLedgerCLI", "Server", "SmartStack", "Ledger", "LMDBKit", "StackLedgerTesting", "Forensics",
                "Ingestion", "Importers", "Projections", "Exports",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// What each fuzz target checks of one input: run by libFuzzer (tools/fuzz) and, on the
// corpus kept under Tests/Fuzz, by the tests.
package.targets.append(
    .target(
        name: "FuzzOracles", dependencies: ["Ledger", "SmartStack", "Projections", "Forensics", "Importers"],
        swiftSettings: strictSettings))

// libFuzzer targets, built only by tools/fuzz (STACKLEDGER_FUZZ=1 swift build -Xswiftc
// -sanitize=fuzzer ...): libFuzzer supplies their `main`.
if Context.environment["STACKLEDGER_FUZZ"] == "1" {
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("FuzzNDJSON", ["FuzzOracles"]),
        ("FuzzRecord", ["FuzzOracles"]),
        ("FuzzSEGB", ["FuzzOracles"]),
        ("FuzzPlist", ["FuzzOracles"]),
        ("FuzzProtobuf", ["FuzzOracles"]),
        ("FuzzEngine", ["FuzzOracles"]),
        ("FuzzArchive", ["FuzzOracles"]),
    ]
    package.targets.append(.target(name: "FuzzSupport", swiftSettings: strictSettings))
    for (name, dependencies) in fuzzTargets {
        package.targets.append(
            .executableTarget(name: name, dependencies: dependencies + ["FuzzSupport"], swiftSettings: strictSettings))
    }
}

// The benchmarks and their C baselines, built only by tools/bench* and tools/callgrind
// (STACKLEDGER_BENCH=1 swift build -c release ...), so that a plain `swift build` and the
// tests leave them out.
if Context.environment["STACKLEDGER_BENCH"] == "1" {
    package.targets += [
        // Baselines for the benchmark: a plain C loop over LMDB and one over SQLite.
        .target(
            name: "CBaselines",
            dependencies: ["CLMDB"],
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "StackLedgerBench",
            dependencies: [
                "Ledger", "SmartStack", "StackLedgerTesting", "Ingestion", "CBaselines",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "StackLedgerEngineBench",
            dependencies: [
                "Allocator", "Ledger", "SmartStack", "Projections", "Forensics", "StackLedgerTesting", "CBaselines",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // SQLiteKit against GRDB.swift on the knowledgeC importer's query (tools/bench-sqlite).
        .executableTarget(
            name: "StackLedgerSQLiteBench",
            dependencies: ["SQLiteKit", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        // The extraction's zip reader against ZIPFoundation, on time and on hostile archives.
        .executableTarget(
            name: "StackLedgerZipBench",
            dependencies: ["Importers", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: strictSettings
        ),
    ]
    package.dependencies += [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ]
}
