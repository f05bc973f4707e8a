import Benchmark
import Futures

let benchmarks: @Sendable () -> Void = {
    Benchmark("noop") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Future(value: 1)) }
    }
}
