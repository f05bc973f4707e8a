// The peers of CoreInstructions, scenario by scenario (1-4 of Benchmarks/README.md), for
// counting instructions under `valgrind --tool=callgrind` (see count-instructions.sh):
//
//     PeerInstructions <scenario>.<peer> <operations>
//
// Peers: NIO (EventLoopFuture on an EmbeddedEventLoop), OpenCombine, ClosureFloor (a plain
// closure stored in a small class: about the least a callback-based design can do). Each is
// written as in PeerBenchmarks.

import NIOCore
import NIOEmbedded
import OpenCombine

/// Where observers deliver results (see CoreInstructions).
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

/// A closure stored in a small class, called once.
final class CallbackBox: @unchecked Sendable {
    var callback: (@Sendable (Int) -> Void)?

    @inline(__always) func fire(_ value: Int) {
        let callback = self.callback
        self.callback = nil
        callback?(value)
    }
}

/// Several closures in a small class, called once each.
final class FanOutBox: @unchecked Sendable {
    var callbacks: [@Sendable (Int) -> Void] = []

    @inline(__always) func fire(_ value: Int) {
        for callback in callbacks {
            callback(value)
        }
        callbacks = []
    }
}

/// A value in a small class: the inner "completed future" of the flatMap floor.
final class ValueBox: @unchecked Sendable {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }
}

/// Gathers values in input order and hands them over once the last one arrives.
final class GatherBox: @unchecked Sendable {
    var slots: [Int?]
    var remaining: Int
    let done: ([Int]) -> Void

    init(count: Int, done: @escaping ([Int]) -> Void) {
        slots = Array(repeating: nil, count: count)
        remaining = count
        self.done = done
    }

    func store(_ value: Int, at index: Int) {
        slots[index] = value
        remaining -= 1
        if remaining == 0 {
            done(slots.compactMap { $0 })
        }
    }
}

/// Where an OpenCombine `Future` hands its promise closure out, to be fulfilled later.
final class PromiseSlot {
    var promise: ((Result<Int, Never>) -> Void)?

    func fulfil(_ value: Int) {
        promise?(.success(value))
        promise = nil
    }
}

/// Hides an object from the optimiser, as a future escapes to whoever completes it: without
/// it, the floor's box would be promoted to the stack and measure nothing.
@inline(never) func escape(_ object: AnyObject) {
    withExtendedLifetime(object) {}
}

@Sendable func increment(_ value: Int) -> Int { value &+ 1 }

@Sendable func justIncrement(_ value: Int) -> Just<Int> { Just(value &+ 1) }

let scenarios: [String: (Int, Sink) -> Void] = [
    "1-observe-resolve.NIO": { operations, sink in
        let loop = EmbeddedEventLoop()
        for index in 0..<operations {
            let promise = loop.makePromise(of: Int.self)
            promise.futureResult.whenComplete { result in sink.consume(result) }
            promise.succeed(index)
        }
    },
    "1-observe-resolve.OpenCombine": { operations, sink in
        let slot = PromiseSlot()
        for index in 0..<operations {
            let future = OpenCombine.Future<Int, Never> { slot.promise = $0 }
            let subscription = future.sink { value in sink.consume(value) }
            slot.fulfil(index)
            withExtendedLifetime(subscription) {}
        }
    },
    "1-observe-resolve.ClosureFloor": { operations, sink in
        for index in 0..<operations {
            let box = CallbackBox()
            box.callback = { value in sink.consume(value) }
            escape(box)
            box.fire(index)
        }
    },
    "2a-map-chain.NIO": { operations, sink in
        let loop = EmbeddedEventLoop()
        for index in 0..<operations {
            let promise = loop.makePromise(of: Int.self)
            var future = promise.futureResult
            for _ in 0..<chainLength {
                future = future.map { $0 &+ 1 }
            }
            future.whenComplete { result in sink.consume(result) }
            promise.succeed(index)
        }
    },
    "2a-map-chain.OpenCombine": { operations, sink in
        let slot = PromiseSlot()
        for index in 0..<operations {
            let future = OpenCombine.Future<Int, Never> { slot.promise = $0 }
            let subscription =
                future
                .map(increment).map(increment).map(increment).map(increment).map(increment)
                .map(increment).map(increment).map(increment).map(increment).map(increment)
                .sink { value in sink.consume(value) }
            slot.fulfil(index)
            withExtendedLifetime(subscription) {}
        }
    },
    "2a-map-chain.ClosureFloor": { operations, sink in
        for index in 0..<operations {
            var callback: @Sendable (Int) -> Void = { value in sink.consume(value) }
            for _ in 0..<chainLength {
                let next = callback
                callback = { value in next(value &+ 1) }
            }
            let box = CallbackBox()
            box.callback = callback
            escape(box)
            box.fire(index)
        }
    },
    "2b-flatMap-chain.NIO": { operations, sink in
        let loop = EmbeddedEventLoop()
        for index in 0..<operations {
            let promise = loop.makePromise(of: Int.self)
            var future = promise.futureResult
            for _ in 0..<chainLength {
                future = future.flatMap { loop.makeSucceededFuture($0 &+ 1) }
            }
            future.whenComplete { result in sink.consume(result) }
            promise.succeed(index)
        }
    },
    "2b-flatMap-chain.OpenCombine": { operations, sink in
        let slot = PromiseSlot()
        for index in 0..<operations {
            let future = OpenCombine.Future<Int, Never> { slot.promise = $0 }
            let step1 = future.flatMap(justIncrement)
            let step2 = step1.flatMap(justIncrement)
            let step3 = step2.flatMap(justIncrement)
            let step4 = step3.flatMap(justIncrement)
            let step5 = step4.flatMap(justIncrement)
            let step6 = step5.flatMap(justIncrement)
            let step7 = step6.flatMap(justIncrement)
            let step8 = step7.flatMap(justIncrement)
            let step9 = step8.flatMap(justIncrement)
            let step10 = step9.flatMap(justIncrement)
            let subscription = step10.sink { value in sink.consume(value) }
            slot.fulfil(index)
            withExtendedLifetime(subscription) {}
        }
    },
    "2b-flatMap-chain.ClosureFloor": { operations, sink in
        for index in 0..<operations {
            var callback: @Sendable (Int) -> Void = { value in sink.consume(value) }
            for _ in 0..<chainLength {
                let next = callback
                callback = { value in
                    let inner = ValueBox(value &+ 1)
                    next(inner.value)
                }
            }
            let box = CallbackBox()
            box.callback = callback
            escape(box)
            box.fire(index)
        }
    },
    "3-ten-observers.NIO": { operations, sink in
        let loop = EmbeddedEventLoop()
        for index in 0..<operations {
            let promise = loop.makePromise(of: Int.self)
            for _ in 0..<observerCount {
                promise.futureResult.whenComplete { result in sink.consume(result) }
            }
            promise.succeed(index)
        }
    },
    "3-ten-observers.OpenCombine": { operations, sink in
        let slot = PromiseSlot()
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(observerCount)
        for index in 0..<operations {
            let future = OpenCombine.Future<Int, Never> { slot.promise = $0 }
            for _ in 0..<observerCount {
                subscriptions.append(future.sink { value in sink.consume(value) })
            }
            slot.fulfil(index)
            subscriptions.removeAll(keepingCapacity: true)
        }
    },
    "3-ten-observers.ClosureFloor": { operations, sink in
        for index in 0..<operations {
            let box = FanOutBox()
            for _ in 0..<observerCount {
                box.callbacks.append { value in sink.consume(value) }
            }
            escape(box)
            box.fire(index)
        }
    },
    "4-all-100.NIO": { operations, sink in
        let loop = EmbeddedEventLoop()
        for _ in 0..<operations {
            let promises = (0..<allCount).map { _ in loop.makePromise(of: Int.self) }
            let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
            all.whenComplete { result in sink.consume(result) }
            for (index, promise) in promises.enumerated() {
                promise.succeed(index)
            }
        }
    },
    "4-all-100.OpenCombine": { operations, sink in
        for _ in 0..<operations {
            let slots = (0..<allCount).map { _ in PromiseSlot() }
            let inputs = slots.map { slot in OpenCombine.Future<Int, Never> { slot.promise = $0 } }
            let subscription = inputs.publisher
                .flatMap { $0 }
                .collect()
                .sink { values in sink.consume(values) }
            for (index, slot) in slots.enumerated() {
                slot.fulfil(index)
            }
            withExtendedLifetime((inputs, subscription)) {}
        }
    },
    "4-all-100.ClosureFloor": { operations, sink in
        for _ in 0..<operations {
            let inputs = (0..<allCount).map { _ in CallbackBox() }
            let gather = GatherBox(count: allCount) { values in sink.consume(values) }
            for (index, input) in inputs.enumerated() {
                input.callback = { value in gather.store(value, at: index) }
            }
            for (index, input) in inputs.enumerated() {
                input.fire(index)
            }
        }
    },
]

let arguments = CommandLine.arguments
guard arguments.count == 3, let run = scenarios[arguments[1]], let operations = Int(arguments[2]) else {
    let names = scenarios.keys.sorted().joined(separator: ", ")
    fatalError("usage: PeerInstructions <scenario>.<peer> <operations>; scenarios: \(names)")
}
let sink = Sink()
run(operations, sink)
precondition(sink.received == operations * (arguments[1].hasPrefix("3-ten-observers") ? observerCount : 1))
