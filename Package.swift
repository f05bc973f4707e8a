// swift-tools-version: 6.2
import PackageDescription

// FunctionalNetworking: networking as a function, built from hand-written futures,
// functional combinators and composers. No package dependencies, by design.
let package = Package(
    name: "FunctionalNetworking",
    // The standard library's `Clock` and `Duration` need macOS 13 / iOS 16.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Futures", targets: ["Futures"]),
        .library(name: "FunctionalNetworking", targets: ["FunctionalNetworking"]),
        .library(name: "FunctionalNetworkingTesting", targets: ["FunctionalNetworkingTesting"]),
        // The seed articles' shapes (`AuthComposer`, `compose`…), for code written as they write it.
        .library(name: "FunctionalNetworkingSeeds", targets: ["FunctionalNetworkingSeeds"]),
        .executable(name: "Playgrounds", targets: ["Playgrounds"]),
    ],
    targets: [
        // The futex calls of the futures' lock on Linux (empty elsewhere).
        .target(name: "CFutex"),
        .target(name: "Futures", dependencies: ["CFutex"]),
        .target(name: "FunctionalNetworking", dependencies: ["Futures"]),
        .target(name: "FunctionalNetworkingTesting", dependencies: ["FunctionalNetworking", "Futures"]),
        .target(name: "FunctionalNetworkingSeeds", dependencies: ["FunctionalNetworking", "Futures"]),
        .executableTarget(
            name: "Playgrounds",
            dependencies: ["Futures", "FunctionalNetworking", "FunctionalNetworkingTesting", "FunctionalNetworkingSeeds"],
            path: "Playgrounds"
        ),
        .testTarget(name: "FuturesTests", dependencies: ["Futures", "FunctionalNetworking", "FunctionalNetworkingTesting"]),
        .testTarget(
            name: "FunctionalNetworkingTests",
            dependencies: ["FunctionalNetworking", "FunctionalNetworkingTesting", "Futures"],
            // The Python Server-Sent Events peer the interop tests start (not a resource: read in place).
            exclude: ["Streams/Peer"]
        ),
        .testTarget(
            name: "FunctionalNetworkingTestingTests",
            dependencies: ["FunctionalNetworkingTesting", "FunctionalNetworking", "Futures"]
        ),
        .testTarget(
            name: "FunctionalNetworkingSeedsTests",
            dependencies: ["FunctionalNetworkingSeeds", "FunctionalNetworking", "FunctionalNetworkingTesting", "Futures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
