// The peers of the core benchmarks (../CoreBenchmarks), scenario by scenario: SwiftNIO's
// EventLoopFuture, OpenCombine, continuations, and a plain closure stored in a small class
// (the floor: about the least a callback-based design can do). Names end in the peer's name;
// the scenario numbers (1-6) match Benchmarks/README.md.

import Benchmark
import BenchmarkSupport
import NIOCore
import NIOEmbedded
import NIOPosix
import OpenCombine

let benchmarks: @Sendable () -> Void = {
    observeResolve()
    chains()
    tenObservers()
    all()
    awaiting()
    crossThread()
}

// MARK: - 1. Promise -> observe -> resolve, one thread

func observeResolve() {
    Benchmark("1-observe-resolve.NIO", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let loop = EmbeddedEventLoop()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            promise.futureResult.whenComplete { result in sink.consume(result) }
            promise.succeed(index)
        }
    }

    Benchmark("1-observe-resolve.OpenCombine", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let slot = PromiseSlot()
        for index in benchmark.scaledIterations {
            let future = OpenCombine.Future<Int, Never> { slot.fulfil = $0 }
            let subscription = future.sink { value in sink.consume(value) }
            slot.fulfil(index)
            withExtendedLifetime(subscription) {}
        }
    }

    Benchmark("1-observe-resolve.UnsafeContinuation", configuration: Suite.configuration()) { benchmark async in
        for index in benchmark.scaledIterations {
            let value = await withUnsafeContinuation { continuation in
                continuation.resume(returning: index)
            }
            blackHole(value)
        }
    }

    Benchmark("1-observe-resolve.ClosureFloor", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            let box = CallbackBox()
            box.callback = { value in sink.consume(value) }
            blackHole(box)  // escapes, as a future does: no stack promotion
            box.fire(index)
        }
    }
}

// MARK: - 2. Chains of 10 maps and of 10 flatMaps

func chains() {
    Benchmark("2a-map-chain.NIO", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let loop = EmbeddedEventLoop()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            var future = promise.futureResult
            for _ in 0..<chainLength {
                future = future.map { $0 &+ 1 }
            }
            future.whenComplete { result in sink.consume(result) }
            promise.succeed(index)
        }
    }

    // OpenCombine folds consecutive maps into one Publishers.Map (as Combine does). Its
    // chains are written out, with named functions so that the type checker copes.
    Benchmark("2a-map-chain.OpenCombine", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let slot = PromiseSlot()
        for index in benchmark.scaledIterations {
            let future = OpenCombine.Future<Int, Never> { slot.fulfil = $0 }
            let subscription =
                future
                .map(increment).map(increment).map(increment).map(increment).map(increment)
                .map(increment).map(increment).map(increment).map(increment).map(increment)
                .sink { value in sink.consume(value) }
            slot.fulfil(index)
            withExtendedLifetime(subscription) {}
        }
    }

    // The floor of a chain: one closure per step, each calling the next.
    Benchmark("2a-map-chain.ClosureFloor", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            var callback: @Sendable (Int) -> Void = { value in sink.consume(value) }
            for _ in 0..<chainLength {
                let next = callback
                callback = { value in next(value &+ 1) }
            }
            let box = CallbackBox()
            box.callback = callback
            blackHole(box)
            box.fire(index)
        }
    }

    Benchmark("2b-flatMap-chain.NIO", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let loop = EmbeddedEventLoop()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            var future = promise.futureResult
            for _ in 0..<chainLength {
                future = future.flatMap { loop.makeSucceededFuture($0 &+ 1) }
            }
            future.whenComplete { result in sink.consume(result) }
            promise.succeed(index)
        }
    }

    Benchmark("2b-flatMap-chain.OpenCombine", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let slot = PromiseSlot()
        for index in benchmark.scaledIterations {
            let future = OpenCombine.Future<Int, Never> { slot.fulfil = $0 }
            // One step per statement: the whole chain in one expression defeats the type checker.
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
    }

    // The floor of a flatMap chain: a map chain whose every step also makes an inner object
    // (the "completed future" it returns).
    Benchmark("2b-flatMap-chain.ClosureFloor", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            var callback: @Sendable (Int) -> Void = { value in sink.consume(value) }
            for _ in 0..<chainLength {
                let next = callback
                callback = { value in
                    let inner = ValueBox(value &+ 1)
                    blackHole(inner)
                    next(inner.value)
                }
            }
            let box = CallbackBox()
            box.callback = callback
            blackHole(box)
            box.fire(index)
        }
    }
}

@Sendable func increment(_ value: Int) -> Int { value &+ 1 }

@Sendable func justIncrement(_ value: Int) -> Just<Int> { Just(value &+ 1) }

// MARK: - 3. One future, 10 observers

func tenObservers() {
    Benchmark("3-ten-observers.NIO", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let loop = EmbeddedEventLoop()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            for _ in 0..<observerCount {
                promise.futureResult.whenComplete { result in sink.consume(result) }
            }
            promise.succeed(index)
        }
    }

    Benchmark("3-ten-observers.OpenCombine", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        let slot = PromiseSlot()
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(observerCount)
        for index in benchmark.scaledIterations {
            let future = OpenCombine.Future<Int, Never> { slot.fulfil = $0 }
            for _ in 0..<observerCount {
                subscriptions.append(future.sink { value in sink.consume(value) })
            }
            slot.fulfil(index)
            subscriptions.removeAll(keepingCapacity: true)
        }
    }

    // The floor: an array of closures in a small class.
    Benchmark("3-ten-observers.ClosureFloor", configuration: Suite.configuration()) { benchmark in
        let sink = Sink()
        for index in benchmark.scaledIterations {
            let box = FanOutBox()
            for _ in 0..<observerCount {
                box.callbacks.append { value in sink.consume(value) }
            }
            blackHole(box)
            box.fire(index)
        }
    }
}

// MARK: - 4. Waiting for 1,000 futures

func all() {
    let configuration = Suite.configuration(scalingFactor: .one, maxIterations: 5_000, mallocTolerance: 100)

    Benchmark("4-all-1000.NIO", configuration: configuration) { benchmark in
        let loop = EmbeddedEventLoop()
        let promises = (0..<allCount).map { _ in loop.makePromise(of: Int.self) }
        let inputs = promises.map(\.futureResult)
        benchmark.startMeasurement()
        let all = EventLoopFuture.whenAllSucceed(inputs, on: loop)
        all.whenComplete { result in precondition((try? result.get())?.count == allCount) }
        for (index, promise) in promises.enumerated() {
            promise.succeed(index)
        }
        benchmark.stopMeasurement()
        withExtendedLifetime((promises, all)) {}
    }

    // OpenCombine 0.14 has no Publishers.MergeMany; merging a sequence of publishers with
    // flatMap is the equivalent (it keeps completion order, not input order).
    Benchmark("4-all-1000.OpenCombine", configuration: configuration) { benchmark in
        let slots = (0..<allCount).map { _ in PromiseSlot() }
        let inputs = slots.map { slot in OpenCombine.Future<Int, Never> { slot.fulfil = $0 } }
        benchmark.startMeasurement()
        let subscription = inputs.publisher
            .flatMap { $0 }
            .collect()
            .sink { values in precondition(values.count == allCount) }
        for (index, slot) in slots.enumerated() {
            slot.fulfil(index)
        }
        benchmark.stopMeasurement()
        withExtendedLifetime((inputs, subscription)) {}
    }

    // The floor: a callback per input, gathering the values into an array.
    Benchmark("4-all-1000.ClosureFloor", configuration: configuration) { benchmark in
        let inputs = (0..<allCount).map { _ in CallbackBox() }
        benchmark.startMeasurement()
        let gather = GatherBox(count: allCount) { values in precondition(values.count == allCount) }
        for (index, input) in inputs.enumerated() {
            input.callback = { value in gather.store(value, at: index) }
        }
        for (index, input) in inputs.enumerated() {
            input.fire(index)
        }
        benchmark.stopMeasurement()
        withExtendedLifetime(inputs) {}
    }
}

// MARK: - 5. Awaiting a completed and a pending future

func awaiting() {
    Benchmark("5a-await-completed.CheckedContinuation", configuration: Suite.configuration()) { benchmark async in
        await withTaskExecutorPreference(SerialTaskExecutor.shared) {
            benchmark.startMeasurement()  // restarts it: the hop to the executor is not measured
            for index in benchmark.scaledIterations {
                let value = await withCheckedContinuation { continuation in
                    continuation.resume(returning: index)
                }
                blackHole(value)
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("5a-await-completed.NIO", configuration: Suite.configuration()) { benchmark async in
        await withTaskExecutorPreference(SerialTaskExecutor.shared) {
            let loop = EmbeddedEventLoop()  // created, used and freed on the executor's thread
            let future = loop.makeSucceededFuture(42)
            benchmark.startMeasurement()  // restarts it: the hop and the set-up are not measured
            for _ in benchmark.scaledIterations {
                blackHole(try! await future.get())
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("5b-await-pending.CheckedContinuation", configuration: Suite.configuration()) { benchmark async in
        let executor = SerialTaskExecutor.shared
        await withTaskExecutorPreference(executor) {
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                let value = await withCheckedContinuation { continuation in
                    executor.submit { continuation.resume(returning: index) }
                }
                blackHole(value)
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("5b-await-pending.NIO", configuration: Suite.configuration()) { benchmark async in
        let executor = SerialTaskExecutor.shared
        await withTaskExecutorPreference(executor) {
            let loop = EmbeddedEventLoop()
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                let promise = loop.makePromise(of: Int.self)
                executor.submit { promise.succeed(index) }
                blackHole(try! await promise.futureResult.get())
            }
            benchmark.stopMeasurement()
        }
    }
}

// MARK: - 6. Resolve on one thread, observe on the other

/// NIO's own thread: the promise is succeeded on the loop, observed from the benchmark thread.
let nioGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

/// The same dedicated thread and queue that resolve our promises in CoreBenchmarks, here
/// calling plain closures.
let floorResolver = Handoff<CallbackBox> { box in box.fire(1) }

let crossThreadCounter = Counter()

func crossThread() {
    Benchmark("6-cross-thread.NIO", configuration: Suite.configuration()) { benchmark in
        let loop = nioGroup.next()
        let counter = crossThreadCounter
        let target = counter.current + benchmark.scaledIterations.count
        for _ in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            loop.execute { promise.succeed(1) }
            promise.futureResult.whenComplete { _ in counter.increment() }
        }
        counter.wait(until: target)
    }

    Benchmark("6-cross-thread.ClosureFloor", configuration: Suite.configuration()) { benchmark in
        let counter = crossThreadCounter
        let target = counter.current + benchmark.scaledIterations.count
        for _ in benchmark.scaledIterations {
            let box = CallbackBox()
            box.callback = { _ in counter.increment() }
            floorResolver.send(box)
        }
        counter.wait(until: target)
    }
}
