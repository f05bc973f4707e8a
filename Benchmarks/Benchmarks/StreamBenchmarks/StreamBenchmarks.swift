// Section 12 of Benchmarks/README.md, in the benchmark tool: the parsers fed the same 10 MB of
// events in 16 KiB chunks (events per second, allocations), and each way of reading the stream
// of 100,000 events from a LoopbackServer (allocations and peak memory per run, each benchmark
// in a process of its own). The one-process comparison of the stream scenarios, with all of
// them against one server in rounds, is Streams/StreamComparison.
//
// No throughput metric: the JMH export needs one, and rounds it to 0 for an operation longer
// than a second (mattt/EventSource's), leaving those out. Export with
// `--format histogramPercentiles` and summarise with Streams/summarize-streams.py.

import Benchmark
import Foundation
import StreamScenarios

let benchmarks: @Sendable () -> Void = {
    parserBenchmarks()
    streamBenchmarks()
}

/// The events of every benchmark here.
let eventCount = 100_000

/// 12. The parsers over the same 10 MB (100,000 events of 100 bytes) in 16 KiB chunks, one
///     pass per operation: ours, mattt/EventSource's `Parser` fed byte by byte and its `events`
///     over the bytes, and the splitter of scenario a (the floor).
func parserBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 20
    )
    let chunks = EventFeed.chunks(of: EventFeed.body(count: eventCount), size: 16 << 10)

    Benchmark("12-parser-10MB.FunctionalNetworking", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let count = try ParserRuns.functionalNetworking(chunks)
            guard count == eventCount else { throw ScenarioError.wrongCount(expected: eventCount, got: count) }
        }
    }
    #if canImport(EventSource)
    Benchmark("12-parser-10MB.EventSource", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let count = await ParserRuns.eventSourceParser(chunks)
            guard count == eventCount else { throw ScenarioError.wrongCount(expected: eventCount, got: count) }
        }
    }
    Benchmark("12-parser-10MB.EventSourceSequence", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let count = try await ParserRuns.eventSourceSequence(chunks)
            guard count == eventCount else { throw ScenarioError.wrongCount(expected: eventCount, got: count) }
        }
    }
    #endif
    Benchmark("12-parser-10MB.Splitter", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let count = ParserRuns.splitter(chunks)
            guard count == eventCount else { throw ScenarioError.wrongCount(expected: eventCount, got: count) }
        }
    }
}

/// 12. One read of the whole stream (100,000 events, 16 KiB chunks) per operation, by each
///     scenario of `StreamScenario`, each with a server of its own made by the setup.
func streamBenchmarks() {
    for scenario in StreamScenario.allCases where scenario != .streamEventsLate {
        let holder = FixtureHolder()
        Benchmark(
            "12-stream-100k.\(scenario.name)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                timeUnits: .microseconds,
                units: [.mallocCountTotal: .count, .peakMemoryResident: .count],
                warmupIterations: 1,
                scalingFactor: .one,
                maxDuration: .seconds(15),
                maxIterations: 10
            ),
            closure: { benchmark in
                let fixture = try holder.current()
                benchmark.startMeasurement()
                try await fixture.run(scenario, shape: .batched)
            },
            setup: { try holder.start() },
            teardown: { holder.stop() }
        )
    }
}

/// The fixture of one stream benchmark, made by its setup and stopped by its teardown.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class FixtureHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var fixture: StreamFixture?

    func start() throws {
        let started = try StreamFixture(eventCount: eventCount, shapes: [.batched])
        lock.withLock { fixture = started }
    }

    func stop() {
        let stopped = lock.withLock {
            defer { fixture = nil }
            return fixture
        }
        stopped?.stop()
    }

    func current() throws -> StreamFixture {
        guard let fixture = lock.withLock({ fixture }) else { throw FixtureMissing() }
        return fixture
    }

    struct FixtureMissing: Error {}
}
