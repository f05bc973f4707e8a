import Benchmark

/// Settings shared by both suites, so that our numbers and the peers' are taken the same way.
public enum Suite {
    /// Time, allocations, and throughput (the JSON export needs throughput).
    ///
    /// Nothing else: the memory and CPU metrics make the framework sample the process (which
    /// allocates on another thread, and would blur the exact allocation counts).
    public static let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput]

    /// A benchmark whose closure performs `scalingFactor` operations per iteration, so that
    /// the framework's per-iteration overhead vanishes from the per-operation figures.
    ///
    /// `mallocCountTotal` gets a tolerance for the static threshold check
    /// (check-allocations.sh), in allocations per iteration: by default half an allocation per
    /// operation, so that one extra allocation per operation fails the check and a stray
    /// allocation by another thread of the process does not.
    public static func configuration(
        scalingFactor: BenchmarkScalingFactor = .kilo,
        maxDuration: Duration = .milliseconds(1_500),
        maxIterations: Int = 20_000,
        mallocTolerance: Int? = nil
    ) -> Benchmark.Configuration {
        .init(
            metrics: metrics,
            timeUnits: .nanoseconds,
            warmupIterations: 5,
            scalingFactor: scalingFactor,
            maxDuration: maxDuration,
            maxIterations: maxIterations,
            thresholds: [
                .mallocCountTotal: .init(absolute: [.p90: mallocTolerance ?? scalingFactor.rawValue / 2])
            ]
        )
    }
}

/// The number of futures in the `all` benchmark (4).
public let allCount = 1_000

/// The length of the `map` and `flatMap` chains (2).
public let chainLength = 10

/// The number of observers in the fan-out benchmark (3).
public let observerCount = 10

/// Where the observers of benchmarks 1-3 deliver their results: every observer captures one
/// (as real observers capture the state they update), so that no implementation gets to
/// fold a capture-free closure literal into its own code.
public final class Sink: @unchecked Sendable {
    public var received = 0

    public init() {}

    @inlinable public func consume<Value>(_ value: Value) {
        blackHole(value)
        received &+= 1
    }
}
