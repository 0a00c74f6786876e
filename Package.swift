// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "outpost",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "outpost", targets: ["outpost"]),
        .library(name: "OutpostCore", targets: ["OutpostCore"]),
        .library(name: "OutpostProtocol", targets: ["OutpostProtocol"]),
        .library(name: "OutpostServer", targets: ["OutpostServer"]),
        .library(name: "OutpostShell", targets: ["OutpostShell"]),
        .library(name: "OutpostDevice", targets: ["OutpostDevice"]),
        .library(name: "OutpostCheckIn", targets: ["OutpostCheckIn"]),
        .library(name: "OutpostKiosk", targets: ["OutpostKiosk"]),
        .library(name: "OutpostWalkIns", targets: ["OutpostWalkIns"]),
        .library(name: "OutpostNotes", targets: ["OutpostNotes"]),
        .library(name: "OutpostPrint", targets: ["OutpostPrint"]),
        .library(name: "OutpostZones", targets: ["OutpostZones"]),
        .library(name: "OutpostPickup", targets: ["OutpostPickup"]),
        .library(name: "OutpostLeads", targets: ["OutpostLeads"]),
        .library(name: "OutpostTracking", targets: ["OutpostTracking"]),
        .library(name: "OutpostActivities", targets: ["OutpostActivities"]),
        .library(name: "OutpostMesh", targets: ["OutpostMesh"]),
        .library(name: "OutpostTerminal", targets: ["OutpostTerminal"]),
        .library(name: "OutpostDrawing", targets: ["OutpostDrawing"]),
        .library(name: "OutpostReport", targets: ["OutpostReport"]),
        .library(name: "OutpostChaos", targets: ["OutpostChaos"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/drmohundro/SWXMLHash.git", from: "8.1.1"),
    ],
    targets: [
        .target(
            name: "OutpostCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostCoreTests",
            dependencies: ["OutpostCore"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostProtocol",
            dependencies: [
                "OutpostCore", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostProtocolTests",
            dependencies: [
                "OutpostCore", "OutpostProtocol", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "OutpostServer",
            dependencies: [
                "OutpostCore",
                "OutpostProtocol",
                "OutpostDrawing",
                "CQRencode",
                "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostTestSupport",
            dependencies: [
                "OutpostCore", "OutpostProtocol",
                "OutpostServer",
                "OutpostDevice",
                "OutpostLab",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostServerTests",
            dependencies: [
                "OutpostCore", "OutpostDrawing", "OutpostProtocol",
                "OutpostServer",
                "OutpostLab",
                "OutpostTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostShell",
            dependencies: [
                "OutpostCore",
                "OutpostProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The device's modules: each depends on the shell and on nothing it does not declare.
        .target(
            name: "OutpostCheckIn",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostKiosk",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", "OutpostCheckIn",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostWalkIns",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", "OutpostCheckIn",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostNotes",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", "OutpostCheckIn",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostPrint",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", "OutpostCheckIn",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostZones",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", "OutpostCheckIn",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostPickup",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", "OutpostCheckIn",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostLeads",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostTracking",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SWXMLHash", package: "SWXMLHash"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostActivities",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostMesh",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostShell", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The composition: the apps made of the shell and its modules (front-ends import this).
        .target(
            name: "OutpostDevice",
            dependencies: [
                "OutpostShell", "OutpostCheckIn", "OutpostKiosk", "OutpostWalkIns", "OutpostNotes", "OutpostPrint",
                "OutpostZones", "OutpostPickup", "OutpostLeads", "OutpostTracking", "OutpostActivities", "OutpostMesh",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostShellTests",
            dependencies: [
                "OutpostCore", "OutpostProtocol",
                "OutpostShell",
                "OutpostServer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostDeviceTests",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostServer",
                "OutpostDevice",
                "OutpostShell",
                "OutpostCheckIn",
                "OutpostKiosk",
                "OutpostWalkIns",
                "OutpostNotes",
                "OutpostPrint",
                "OutpostZones",
                "OutpostPickup",
                "OutpostLeads",
                "OutpostTracking",
                "OutpostActivities",
                "OutpostMesh",
                "OutpostChaos",
                "OutpostLab",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                "OutpostTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(name: "CZbar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(
            name: "OutpostTerminal",
            dependencies: [
                "OutpostCore", "OutpostDevice", "OutpostDrawing", "OutpostProtocol", "CZbar", "CPNG", "CTurboJPEG",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostTerminalTests",
            dependencies: [
                "OutpostCore", "OutpostDevice", "OutpostDrawing", "OutpostProtocol", "OutpostTracking",
                "OutpostTerminal",
                "OutpostServer",
                "OutpostTestSupport",
                "CTurboJPEG",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .target(
            name: "OutpostDrawing",
            dependencies: ["OutpostProtocol", "CCairo", "CQRencode", "CZlib"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostReport",
            dependencies: ["OutpostCore", "OutpostDevice", "OutpostDrawing"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostReportTests",
            dependencies: [
                "OutpostDevice", "OutpostProtocol", "OutpostReport", "OutpostDrawing", "OutpostTestSupport", "CCairo",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostChaos",
            dependencies: [
                "OutpostCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostChaosTests",
            dependencies: [
                "OutpostCore", "OutpostProtocol", "OutpostChaos", "OutpostDevice", "OutpostServer",
                "OutpostTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "outpost",
            dependencies: [
                "OutpostCore", "OutpostProtocol",
                "OutpostServer",
                "OutpostDevice",
                "OutpostTerminal",
                "OutpostDrawing",
                "OutpostReport",
                "OutpostChaos",
                "OutpostLab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutpostLab",
            dependencies: [
                "OutpostCore",
                "OutpostProtocol",
                "OutpostDevice",
                "OutpostChaos",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutpostLabTests",
            dependencies: [
                "OutpostCore", "OutpostDevice", "OutpostProtocol", "OutpostLab", "OutpostTestSupport", "OutpostServer",
                "OutpostChaos",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "outpostTests",
            dependencies: [
                "OutpostActivities", "OutpostCheckIn", "OutpostKiosk", "OutpostTracking",
                "outpost", "OutpostCore", "OutpostChaos", "OutpostDevice", "OutpostLab", "OutpostProtocol",
                "OutpostShell", "OutpostTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

// libFuzzer targets, only with OUTPOST_FUZZ=1 (scripts/fuzz builds them with
// `swift build --sanitize=fuzzer --sanitize=address` in its own scratch folder, .build-fuzz).
if Context.environment["OUTPOST_FUZZ"] == "1" {
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("FuzzTicketDecoder", ["OutpostCore", .product(name: "Crypto", package: "swift-crypto")]),
        ("FuzzCSVImport", ["OutpostServer", "OutpostProtocol"]),
        ("FuzzRequestBodies", ["OutpostProtocol"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: name, dependencies: dependencies, path: "Fuzz/\(name)", swiftSettings: swiftSettings))
    }
}
