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
        // Completed on another thread while the main actor is held here: the three observers
        // are on their way to the main actor, and cannot run before this method suspends.
        DispatchQueue.global().sync { _ = promise.resolve(with: 1) }
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
