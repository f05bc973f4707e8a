// The core scenarios (1-4 of Benchmarks/README.md) as a plain program, for counting
// instructions under `valgrind --tool=callgrind` (see count-instructions.sh):
//
//     CoreInstructions <scenario> <operations>
//
// It runs `operations` operations of one scenario and exits. The script runs it twice, with
// two counts of operations, and divides the difference of the instruction totals by the
// difference of the counts: start-up, the runtime's first metadata look-ups and exit cancel.
// Depends on Futures only, so the instruction gate builds without NIO or OpenCombine.

import Futures

/// Where observers deliver results: every observer captures one, as real observers capture
/// the state they update (the same rule as the benchmarks' `Sink`).
final class Sink: @unchecked Sendable {
    var received = 0

    @inline(never) func consume<Value>(_ value: Value) {
        withExtendedLifetime(value) {}
        received &+= 1
    }
}

let chainLength = 10
let observerCount = 10
let allCount = 100

/// The scenarios, by the names count-instructions.sh passes. `@Sendable`, so that they are
/// nonisolated: a closure of top-level code is otherwise isolated to the main actor, and so
/// would be the observers written in it, which then hop to the main actor (see
/// `Future.observe(isolation:_:)`). The benchmark package's scenarios are nonisolated too.
let scenarios: [String: @Sendable (Int, Sink) -> Void] = [
    // 1. Promise -> observe -> resolve.
    "1-observe-resolve": { operations, sink in
        for index in 0..<operations {
            let promise = Promise<Int>()
            promise.observe { result in sink.consume(result) }
            promise.resolve(with: index)
        }
    },
    // 2a. Ten maps on a pending promise, observed, then the promise resolved.
    "2a-map-chain": { operations, sink in
        for index in 0..<operations {
            let promise = Promise<Int>()
            var future: Future<Int> = promise
            for _ in 0..<chainLength {
                future = future.map { $0 &+ 1 }
            }
            future.observe { result in sink.consume(result) }
            promise.resolve(with: index)
        }
    },
    // 2b. Ten flatMaps, each to a completed future.
    "2b-flatMap-chain": { operations, sink in
        for index in 0..<operations {
            let promise = Promise<Int>()
            var future: Future<Int> = promise
            for _ in 0..<chainLength {
                future = future.flatMap { Future(value: $0 &+ 1) }
            }
            future.observe { result in sink.consume(result) }
            promise.resolve(with: index)
        }
    },
    // 3. One promise, ten observers, resolved.
    "3-ten-observers": { operations, sink in
        for index in 0..<operations {
            let promise = Promise<Int>()
            for _ in 0..<observerCount {
                promise.observe { result in sink.consume(result) }
            }
            promise.resolve(with: index)
        }
    },
    // 4. `all` over 100 pending promises (made in the operation), observed, then resolved.
    "4-all-100": { operations, sink in
        for _ in 0..<operations {
            let promises = (0..<allCount).map { _ in Promise<Int>() }
            let all = Future.all(promises as [Future<Int>])
            all.observe { result in sink.consume(result) }
            for (index, promise) in promises.enumerated() {
                promise.resolve(with: index)
            }
        }
    },
]

let arguments = CommandLine.arguments
guard arguments.count == 3, let run = scenarios[arguments[1]], let operations = Int(arguments[2]) else {
    let names = scenarios.keys.sorted().joined(separator: ", ")
    fatalError("usage: CoreInstructions <scenario> <operations>; scenarios: \(names)")
}
let sink = Sink()
run(operations, sink)
precondition(sink.received == operations * (arguments[1] == "3-ten-observers" ? observerCount : 1))
