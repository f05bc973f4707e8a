// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for FunctionalNetworking's Futures, kept out of the root package so that the
// library itself stays dependency-free. Run from this directory:
//
//     swift package --disable-sandbox benchmark
//
// Three suites (the benchmark plugin discovers them under Benchmarks/<SuiteName>/):
// - CoreBenchmarks: this package's futures only. Builds without NIO or OpenCombine, so the
//   allocation gate (check-allocations.sh) stays quick.
// - PeerBenchmarks: the same scenarios with SwiftNIO, OpenCombine, continuations and a plain
//   closure, for comparison.
// - NetworkBenchmarks: the networking module (7-9, 11): the composer stack over an in-memory
//   transport, requests to a LoopbackServer against raw URLSession, decoded() against
//   JSONDecoder, and 100 MiB uploads and downloads against raw URLSession.
// - StreamBenchmarks: Server-Sent Events (12): the parsers, ours against mattt/EventSource's,
//   and reading a stream from a LoopbackServer, the package against a raw URLSession delegate
//   and mattt/EventSource. Only it (through StreamScenarios) depends on EventSource, so the
//   other suites and the gates build as before. The same scenarios in one process, in rounds:
//   `swift run -c release StreamComparison` (not a suite of the tool).
let package = Package(
    name: "FunctionalNetworkingBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "FunctionalNetworking", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/mattt/EventSource", from: "1.1.0"),
    ],
    targets: [
        // Helpers shared by both suites (the hand-off thread, the task executor, settings).
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")]
        ),
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Futures", package: "FunctionalNetworking"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PeerBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PeerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "NetworkBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "FunctionalNetworking", package: "FunctionalNetworking"),
                .product(name: "FunctionalNetworkingTesting", package: "FunctionalNetworking"),
                .product(name: "Futures", package: "FunctionalNetworking"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/NetworkBenchmarks",
            exclude: ["summarize-network.py"],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The stream scenarios and parser runs of 12, shared by StreamBenchmarks and
        // StreamComparison. mattt/EventSource's module does not build on Linux (it calls
        // URLSession.bytes(for:delegate:), which swift-corelibs-foundation lacks): there the
        // scenarios and parser runs that use it are left out.
        .target(
            name: "StreamScenarios",
            dependencies: [
                .product(name: "FunctionalNetworking", package: "FunctionalNetworking"),
                .product(name: "FunctionalNetworkingTesting", package: "FunctionalNetworking"),
                .product(
                    name: "EventSource", package: "EventSource",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])
                ),
            ],
            path: "Streams/StreamScenarios"
        ),
        .executableTarget(
            name: "StreamBenchmarks",
            dependencies: [
                "StreamScenarios",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StreamBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StreamComparison",
            dependencies: ["StreamScenarios"],
            path: "Streams/StreamComparison"
        ),
        // Plain programs for counting instructions under valgrind (count-instructions.sh):
        // the core alone (for the instruction gate: no NIO, no OpenCombine), and its peers.
        .executableTarget(
            name: "CoreInstructions",
            dependencies: [.product(name: "Futures", package: "FunctionalNetworking")],
            path: "Instructions/CoreInstructions"
        ),
        .executableTarget(
            name: "PeerInstructions",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Instructions/PeerInstructions"
        ),
        // The composer stack of benchmark 7, for counting its instructions per request
        // (count-instructions.sh --stack); Stack.swift is the benchmark's, linked.
        .executableTarget(
            name: "StackInstructions",
            dependencies: [.product(name: "FunctionalNetworking", package: "FunctionalNetworking")],
            path: "Instructions/StackInstructions"
        ),
        // The future's lock under contention (13): candidate locks hammered by 16 and 2
        // threads, in one process. Linux only (it prints a line elsewhere); FutexShim wraps the
        // futex system call, which Swift cannot call (`syscall` is variadic).
        .target(name: "FutexShim", path: "Locks/FutexShim"),
        .executableTarget(
            name: "LockContention",
            dependencies: ["FutexShim"],
            path: "Locks/LockContention"
        ),
        // End to end against nginx (nginx-comparison.sh starts the server).
        .executableTarget(
            name: "NginxComparison",
            dependencies: [
                .product(name: "FunctionalNetworking", package: "FunctionalNetworking"),
                .product(name: "Futures", package: "FunctionalNetworking"),
            ],
            path: "Nginx/NginxComparison"
        ),
    ]
)
