import Dispatch
import Foundation
import Futures
import Testing

@Suite("Future+Observe")
struct FutureObserveTests {
    @Test func observeOnAQueueRunsTheObserverOnThatQueue() async throws {
        let queue = DispatchQueue(label: "observe-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "observe-test")
        let promise = Promise<Int>()
        let done = Promise<String?>()
        promise.observe(on: queue) { _ in done.resolve(with: DispatchQueue.getSpecific(key: key)) }
        promise.resolve(with: 1)
        #expect(try await done.value(within: .seconds(30)) == "observe-test")
    }

    @Test func observersOnOneSerialQueueRunInRegistrationOrder() async throws {
        let queue = DispatchQueue(label: "observe-order")
        let order = Recorder<Int>()
        let done = Promise<Void>()
        let promise = Promise<Int>()
        for index in 0..<50 {
            promise.observe(on: queue) { _ in
                order.append(index)
                if index == 49 { done.resolve() }
            }
        }
        promise.resolve(with: 1)
        try await done.value(within: .seconds(30))
        #expect(order.values == Array(0..<50))
    }
}

// MARK: - Observing from an actor

/// The product of the seed article's view controller.
fileprivate struct Product: Equatable, Sendable {
    let id: Int
    let name: String
}

/// The seed article's view controller, as the article writes it (a main-actor class with a
/// title instead of a `UIViewController`, which Linux does not have).
@MainActor
fileprivate final class ProductViewController {
    typealias Loading = () -> Future<Product>

    private let loading: Loading
    var title: String?

    init(loading: @escaping Loading) {
        self.loading = loading
    }

    func viewWillAppear(_ animated: Bool) {
        loading().observe { [weak self] result in
            switch result {
            case .success(let product): self?.title = product.name
            case .failure(let error): self?.title = "Error: \(error)"
            }
        }
    }
}

/// Marks the main dispatch queue, which runs the main actor's jobs: on Linux a worker thread
/// drains it (`swift test` parks the main thread), so `Thread.isMainThread` cannot tell.
fileprivate let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// What observers on the main actor saw, in order, and whether they ran on the main queue.
@MainActor
fileprivate final class MainActorLog {
    private(set) var entries: [String] = []
    private(set) var onMainQueue: [Bool] = []
    private let expected: Int
    private let complete = Promise<Void>()

    init(expecting expected: Int) {
        self.expected = expected
        _ = mainQueueKey
    }

    func record(_ entry: String) {
        MainActor.assertIsolated()
        entries.append(entry)
        onMainQueue.append(DispatchQueue.getSpecific(key: mainQueueKey) == true)
        if entries.count == expected {
            complete.resolve()
        }
    }

    /// Waits, at most 30 seconds, until `expected` entries are in.
    func wait() async throws {
        try await complete.value(within: .seconds(30))
    }
}

/// An actor whose observers update its own state.
fileprivate actor Shelf {
    private(set) var names: [String] = []
    private let filled: Promise<Void>
    private let expected: Int

    init(expecting expected: Int) {
        self.expected = expected
        filled = Promise()
    }

    /// Observes `future` and returns the names as they are when `observe` returns.
    func show(_ future: Future<String>, as label: String = "") -> [String] {
        future.observe { result in
            self.assertIsolated()
            self.names.append(label + ((try? result.get()) ?? "failed"))
            if self.names.count == self.expected {
                self.filled.resolve()
            }
        }
        return names
    }

    nonisolated func waitUntilFilled() async throws {
        try await filled.value(within: .seconds(30))
    }
}

@Suite("Future+Observe: observers isolated to an actor")
struct FutureObserveIsolationTests {
    @Test @MainActor func theArticlesViewControllerShowsAProductFromAPromiseWithNoWaiting() {
        let viewController = ProductViewController {
            let product = Product(id: 7, name: "iPad Pro")
            return Promise(value: product)
        }
        viewController.viewWillAppear(false)
        #expect(viewController.title == "iPad Pro")
    }

    @Test @MainActor func theArticlesViewControllerShowsAFailureWithNoWaiting() {
        let viewController = ProductViewController { Future(error: TestError("offline")) }
        viewController.viewWillAppear(false)
        #expect(viewController.title == "Error: TestError(offline)")
    }

    @Test @MainActor func aMainActorObserverOfAPendingFutureRunsOnTheMainActorWhenAnotherThreadCompletesIt()
        async throws
    {
        let promise = Promise<Product>()
        let viewController = ProductViewController { promise }
        viewController.viewWillAppear(false)
        let log = MainActorLog(expecting: 1)
        promise.observe { result in log.record((try? result.get().name) ?? "failed") }
        #expect(viewController.title == nil)

        Thread.detachNewThread { promise.resolve(with: Product(id: 7, name: "iPad Pro")) }
        try await log.wait()

        #expect(log.entries == ["iPad Pro"])
        #expect(log.onMainQueue == [true])
        #expect(viewController.title == "iPad Pro")
    }

    @Test @MainActor func mainActorObserversOfAPendingFutureRunInRegistrationOrderExactlyOnce() async throws {
        let promise = Promise<Int>()
        let log = MainActorLog(expecting: 50)
        for index in 0..<50 {
            promise.observe { _ in log.record("\(index)") }
        }
        Thread.detachNewThread {
            promise.resolve(with: 1)
            promise.resolve(with: 2)
        }
        try await log.wait()
        try await Task.sleep(for: .milliseconds(50))  // room for a wrong extra run to show

        #expect(log.entries == (0..<50).map { "\($0)" })
        #expect(log.onMainQueue == Array(repeating: true, count: 50))
    }

    @Test @MainActor func aMainActorObserverWaitsForEarlierOnesStillOnTheirWayThenLaterOnesRunAtOnce()
        async throws
    {
        let promise = Promise<Int>()
        let log = MainActorLog(expecting: 4)
        for name in ["first", "second", "third"] {
            promise.observe { _ in log.record(name) }
        }
        // Completed by nonisolated code (a `@Sendable` closure) while the main actor is held
        // here: the three observers are on their way to the main actor, and cannot run before
        // this method suspends.
        DispatchQueue.global().sync { @Sendable in _ = promise.resolve(with: 1) }
        promise.observe { _ in log.record("registered after completion") }
        #expect(log.entries == [])  // it waits for the three instead of overtaking them

        try await log.wait()
        #expect(log.entries == ["first", "second", "third", "registered after completion"])

        promise.observe { _ in log.record("once they have run") }
        #expect(log.entries.last == "once they have run")  // at once again
    }

    @Test func anObserverOnACustomActorRunsAtOnceWhenTheFutureHasCompleted() async {
        let shelf = Shelf(expecting: 1)
        let namesWhenObserveReturned = await shelf.show(Future(value: "iPad Pro"))
        #expect(namesWhenObserveReturned == ["iPad Pro"])
    }

    @Test func observersOnACustomActorRunThereInOrderWhenAnotherThreadCompletesTheFuture() async throws {
        let shelf = Shelf(expecting: 20)
        let promise = Promise<String>()
        for index in 0..<20 {
            #expect(await shelf.show(promise, as: "\(index): ") == [])
        }
        Thread.detachNewThread { promise.resolve(with: "iPad Pro") }
        try await shelf.waitUntilFilled()

        #expect(await shelf.names == (0..<20).map { "\($0): iPad Pro" })
    }

    @Test func aClosureMarkedMainActorInNonisolatedCodeRunsOnTheMainActor() async throws {
        let log = await MainActorLog(expecting: 2)
        let promise = Promise<Int>()
        promise.observe { @MainActor result in log.record("pending: \((try? result.get()) ?? -1)") }
        promise.resolve(with: 7)
        Future(value: 8).observe { @MainActor result in log.record("completed: \((try? result.get()) ?? -1)") }
        try await log.wait()

        #expect(await log.entries == ["pending: 7", "completed: 8"])
        #expect(await log.onMainQueue == [true, true])
    }

    @Test func observeOnMainActorFromNonisolatedCodeRunsTheObserverOnTheMainActor() async throws {
        let log = await MainActorLog(expecting: 1)
        Future(value: "iPad Pro").observeOnMainActor { result in log.record((try? result.get()) ?? "failed") }
        try await log.wait()

        #expect(await log.entries == ["iPad Pro"])
        #expect(await log.onMainQueue == [true])
    }

    @Test @MainActor func observeOnMainActorOnTheMainActorRunsAtOnceWhenTheFutureHasCompleted() {
        let log = MainActorLog(expecting: 1)
        Future(value: "iPad Pro").observeOnMainActor { result in log.record((try? result.get()) ?? "failed") }
        #expect(log.entries == ["iPad Pro"])
    }

    @Test @MainActor func aDroppedPromiseFailsItsMainActorObserverWithBrokenPromiseOnTheMainActor() async throws {
        let log = MainActorLog(expecting: 1)
        do {
            let promise = Promise<Int>()
            promise.observe { result in log.record(result.error is BrokenPromise ? "broken" : "other") }
        }
        try await log.wait()

        #expect(log.entries == ["broken"])
        #expect(log.onMainQueue == [true])
    }

    @Test func nonisolatedObserversStillRunOnTheCompletingThread() async {
        let promise = Promise<Int>()
        let threads = Recorder<ObjectIdentifier>()
        promise.observe { _ in threads.append(ObjectIdentifier(Thread.current)) }
        let completing = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                promise.resolve(with: 1)
                continuation.resume(returning: ObjectIdentifier(Thread.current))
            }
        }
        #expect(threads.values == [completing])
    }
}

// MARK: - Completed on the observer's actor

/// A main-actor view model whose screen state follows a future.
@MainActor
fileprivate final class ProductViewModel {
    enum State: Equatable {
        case loading
        case loaded(String)
        case failed
    }

    private(set) var state = State.loading

    func load(_ product: Future<Product>) {
        state = .loading
        product.observe { [weak self] result in
            self?.state = (try? result.get()).map { .loaded($0.name) } ?? .failed
        }
    }
}

/// An observer made in nonisolated code, so that it is nonisolated: it runs on the completing
/// thread.
fileprivate func plainObserver(recording name: String, in order: Recorder<String>) -> PlainObserver {
    { _ in order.append(name) }
}

fileprivate typealias PlainObserver = @Sendable (Result<Int, any Error>) -> Void

/// Registers a `@MainActor` observer from nonisolated code (the caller is not on the actor).
fileprivate func observeOnMainActorFromElsewhere(_ future: Future<Int>, recording name: String, in order: Recorder<String>) {
    future.observe { @MainActor _ in order.append(name) }
}

extension Shelf {
    /// Observes `future` on this actor, resolves `promise` here, and returns the names as they
    /// are when `resolve` returns.
    func show(_ future: Future<String>, resolving promise: Promise<String>, with name: String) -> [String] {
        _ = show(future)
        promise.resolve(with: name)
        return names
    }

    /// Resolves `promise` on this actor.
    func resolve(_ promise: Promise<String>, with name: String) {
        promise.resolve(with: name)
    }
}

@Suite("Future+Observe: completed on the observer's actor")
struct FutureObserveCompletingActorTests {
    @Test @MainActor func aViewModelShowsAPendingPromisesValueWhenResolveReturnsOnTheMainActor() {
        let viewModel = ProductViewModel()
        for index in 0..<1_000 {
            let promise = Promise<Product>()
            viewModel.load(promise)
            #expect(viewModel.state == .loading)
            promise.resolve(with: Product(id: index, name: "iPad \(index)"))
            #expect(viewModel.state == .loaded("iPad \(index)"))  // no yield, no wait
        }
    }

    @Test @MainActor func aViewModelShowsARejectionWhenRejectReturnsOnTheMainActor() {
        let viewModel = ProductViewModel()
        for _ in 0..<1_000 {
            let promise = Promise<Product>()
            viewModel.load(promise)
            promise.reject(with: TestError("offline"))
            #expect(viewModel.state == .failed)
        }
    }

    @Test @MainActor func aViewModelShowsACancellationWhenCancelReturnsOnTheMainActor() {
        let viewModel = ProductViewModel()
        for _ in 0..<1_000 {
            let promise = Promise<Int>()
            viewModel.load(promise.map { Product(id: $0, name: "product \($0)") })
            promise.cancel()
            #expect(viewModel.state == .failed)
        }
    }

    @Test @MainActor func theArticlesViewControllerShowsAPendingPromiseResolvedOnTheMainActorWithNoWaiting() {
        let promise = Promise<Product>()
        let viewController = ProductViewController { promise }
        viewController.viewWillAppear(false)
        #expect(viewController.title == nil)
        promise.complete(with: .success(Product(id: 7, name: "iPad Pro")))
        #expect(viewController.title == "iPad Pro")
    }

    @Test @MainActor func anObserverOfADerivedFutureRunsWhenTheMainActorResolvesTheSource() {
        let viewModel = ProductViewModel()
        let promise = Promise<Int>()
        viewModel.load(promise.map { Product(id: $0, name: "product \($0)") })
        promise.resolve(with: 3)
        #expect(viewModel.state == .loaded("product 3"))
    }

    @Test @MainActor func aMainActorObserverStillHopsWhenAnotherThreadResolvesAndRunsExactlyOnce() async throws {
        let promise = Promise<Int>()
        let log = MainActorLog(expecting: 1)
        promise.observe { result in log.record("\((try? result.get()) ?? -1)") }
        // The main actor is held here while nonisolated code on another thread completes the
        // promise: the observer cannot run in place there, and runs once this method suspends.
        let resolved = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = promise.resolve(with: 1)
            _ = promise.resolve(with: 2)
            resolved.signal()
        }
        resolved.wait()
        #expect(log.entries == [])

        try await log.wait()
        try await Task.sleep(for: .milliseconds(50))  // room for a wrong extra run to show
        #expect(log.entries == ["1"])
        #expect(log.onMainQueue == [true])
    }

    @Test @MainActor func aClosureThatDispatchSyncRunsForTheMainActorIsOnTheMainActorSoObserversRunInPlace() {
        let promise = Promise<Int>()
        let log = MainActorLog(expecting: 1)
        promise.observe { result in log.record("\((try? result.get()) ?? -1)") }
        // A closure that is not `@Sendable` keeps its caller's isolation, and `sync` runs it
        // while the main actor waits for it: it completes the promise on the main actor.
        DispatchQueue.global().sync { _ = promise.resolve(with: 1) }
        #expect(log.entries == ["1"])
    }

    @Test @MainActor func isolatedAndPlainObserversRunInRegistrationOrderBeforeResolveReturns() {
        for _ in 0..<1_000 {
            let promise = Promise<Int>()
            let order = Recorder<String>()
            promise.observe { _ in order.append("main 1") }
            promise.observe(plainObserver(recording: "plain 2", in: order))
            observeOnMainActorFromElsewhere(promise, recording: "main from elsewhere 3", in: order)
            promise.observe { _ in order.append("main 4") }
            promise.observe(plainObserver(recording: "plain 5", in: order))
            promise.resolve(with: 1)
            #expect(order.values == ["main 1", "plain 2", "main from elsewhere 3", "main 4", "plain 5"])
            promise.resolve(with: 2)
            #expect(order.count == 5)  // exactly once
        }
    }

    @Test @MainActor func mainActorObserversThatResolveTheNextPromiseRunAChainOfAnyLengthInPlace() {
        let promises = (0..<100_000).map { _ in Promise<Int>() }
        for (promise, next) in zip(promises, promises.dropFirst()) {
            promise.observe { result in next.resolve(with: ((try? result.get()) ?? 0) + 1) }
        }
        var last: Int?
        promises[promises.count - 1].observe { result in last = try? result.get() }
        promises[0].resolve(with: 0)
        #expect(last == 99_999)
    }

    @Test func anObserverOnACustomActorRunsWhenThatActorResolvesThePromise() async {
        let shelf = Shelf(expecting: 1)
        for index in 0..<100 {
            let promise = Promise<String>()
            let names = await shelf.show(promise, resolving: promise, with: "iPad \(index)")
            #expect(names.last == "iPad \(index)")
        }
    }

    @Test func aMainActorObserverHopsWhenAnotherActorResolvesThePromise() async throws {
        let shelf = Shelf(expecting: 1)
        let log = await MainActorLog(expecting: 1)
        let promise = Promise<String>()
        promise.observe { @MainActor result in log.record((try? result.get()) ?? "failed") }
        await shelf.resolve(promise, with: "iPad Pro")
        try await log.wait()
        #expect(await log.entries == ["iPad Pro"])
        #expect(await log.onMainQueue == [true])
    }
}
