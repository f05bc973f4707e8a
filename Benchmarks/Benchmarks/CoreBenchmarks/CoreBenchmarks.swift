// The core benchmarks: this package's futures only. The same scenarios, built with SwiftNIO,
// OpenCombine, continuations and plain closures, are in ../PeerBenchmarks; the scenario
// numbers (1-6) match Benchmarks/README.md.
//
// These are also the benchmarks of the allocation gate (check-allocations.sh): keep the
// names free of spaces and slashes, since they name the files in Thresholds/.

import Benchmark
import BenchmarkSupport
import Futures

let benchmarks: @Sendable () -> Void = {
    // 0. The framework's own per-iteration cost, for reading the other figures.
    Benchmark("0-empty-loop.Futures", configuration: Suite.configuration()) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(index)
        }
    }

    // 1. Promise -> observe -> resolve, one thread.
    Benchmark("1-observe-resolve.Futures", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            let promise = Promise<Int>()
            promise.observe { result in sink.consume(result) }
            promise.resolve(with: index)
        }
    }

    // 2a. A chain of 10 maps, observed, then the head is resolved.
    Benchmark("2a-map-chain.Futures", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            let promise = Promise<Int>()
            var future: Future<Int> = promise
            for _ in 0..<chainLength {
                future = future.map { $0 &+ 1 }
            }
            future.observe { result in sink.consume(result) }
            promise.resolve(with: index)
        }
    }

    // 2b. A chain of 10 flatMaps, each returning a completed future.
    Benchmark("2b-flatMap-chain.Futures", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            let promise = Promise<Int>()
            var future: Future<Int> = promise
            for _ in 0..<chainLength {
                future = future.flatMap { Future(value: $0 &+ 1) }
            }
            future.observe { result in sink.consume(result) }
            promise.resolve(with: index)
        }
    }

    // 3. One future with 10 observers.
    Benchmark("3-ten-observers.Futures", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            let promise = Promise<Int>()
            for _ in 0..<observerCount {
                promise.observe { result in sink.consume(result) }
            }
            promise.resolve(with: index)
        }
    }

    // 4. Future.all over 1,000 pending futures; one operation is one `all`. Creating the
    //    inputs is not measured; joining them, observing the result and resolving them is.
    //    The allocation gate tolerates 100 stray allocations per `all`: one more allocation
    //    per input is 1,000 more.
    Benchmark(
        "4-all-1000.Futures",
        configuration: Suite.configuration(scalingFactor: .one, maxIterations: 5_000, mallocTolerance: 100)
    ) { benchmark in
        let promises = (0..<allCount).map { _ in Promise<Int>() }
        let inputs: [Future<Int>] = promises
        benchmark.startMeasurement()
        let all = Future.all(inputs)
        all.observe { result in precondition((try? result.get())?.count == allCount) }
        for (index, promise) in promises.enumerated() {
            promise.resolve(with: index)
        }
        benchmark.stopMeasurement()
        withExtendedLifetime((promises, all)) {}
    }

    // 5a. `await future.value` on a completed future.
    Benchmark("5a-await-completed.Futures", configuration: Suite.configuration()) { benchmark in
        let future = Future(value: 42)
        await withTaskExecutorPreference(SerialTaskExecutor.shared) {
            benchmark.startMeasurement()  // restarts it: the hop to the executor is not measured
            for _ in benchmark.scaledIterations {
                blackHole(try! await future.value)
            }
            benchmark.stopMeasurement()
        }
    }

    // 5b. `await future.value` on a pending future that a later job on the same executor
    //     resolves (see SerialTaskExecutor): the await always suspends.
    Benchmark("5b-await-pending.Futures", configuration: Suite.configuration()) { benchmark in
        let executor = SerialTaskExecutor.shared
        await withTaskExecutorPreference(executor) {
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                let promise = Promise<Int>()
                executor.submit { promise.resolve(with: index) }
                blackHole(try! await promise.value)
            }
            benchmark.stopMeasurement()
        }
    }

    // 6. Resolve on one thread, observe on the other: the benchmark thread hands each promise
    //    to a dedicated thread that resolves it, then observes it; the batch ends when every
    //    observer has run.
    Benchmark("6-cross-thread.Futures", configuration: Suite.configuration()) { benchmark in
        let resolver = crossThreadResolver
        let counter = crossThreadCounter
        let target = counter.current + benchmark.scaledIterations.count
        for _ in benchmark.scaledIterations {
            let promise = Promise<Int>()
            resolver.send(promise)
            promise.observe { _ in counter.increment() }
        }
        counter.wait(until: target)
    }
}

/// The dedicated resolving thread of benchmark 6, started once.
let crossThreadResolver = Handoff<Promise<Int>> { promise in
    promise.resolve(with: 1)
}

/// Counts the observers of benchmark 6 that have run.
let crossThreadCounter = Counter()
