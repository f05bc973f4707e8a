import Dispatch
import Futures
import Testing

// The samples of Futures.docc/FuturesAndPromises.md, as the article shows them.

fileprivate func fetchGreeting() -> Future<String> {
    Future { "hello" }  // the task starts here, when the future is made
}

fileprivate func legacyLoad(completion: @escaping @Sendable (Int) -> Void) {
    // A bug: returns without calling `completion`, and drops it.
}

fileprivate func loadCount() -> Future<Int> {
    let promise = Promise<Int>()
    legacyLoad { count in promise.resolve(with: count) }
    return promise
}

fileprivate struct Product: Equatable, Sendable {
    let id: Int
    let name: String
}

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

fileprivate func show(_ future: Future<Product>, in viewController: ProductViewController) {
    future.observe { @MainActor result in
        viewController.title = (try? result.get())?.name
    }
}

@Suite("Samples: Futures and promises, the contract")
struct FuturesAndPromisesSamplesTests {
    @Test func aFutureStartsItsWorkWhenItIsMadeAndAFunctionStartsItWhenCalled() async throws {
        let greeting = fetchGreeting()  // the work is under way
        let fetchLater = { fetchGreeting() }  // nothing runs until this is called

        #expect(try await greeting.value(within: .seconds(30)) == "hello")
        #expect(try await fetchLater().value(within: .seconds(30)) == "hello")
    }

    @Test func theFirstCompletionWinsAndLaterOnesReturnFalse() {
        let promise = Promise<String>()
        promise.resolve(with: "first")  // returns true
        promise.resolve(with: "second")  // returns false: ignored
        promise.reject(with: CancellationError())  // returns false: ignored

        #expect(promise.result?.success == "first")
        #expect(promise.resolve(with: "third") == false)
    }

    @Test func observersRunOnceInRegistrationOrderAndMayObserveAgain() {
        let events = Recorder<String>()

        let promise = Promise<Int>()
        promise.observe { _ in events.append("first") }
        promise.observe { _ in
            events.append("second")
            promise.observe { _ in events.append("third") }  // allowed: no lock is held
        }
        promise.resolve(with: 1)
        promise.observe { _ in events.append("late") }  // runs at once: already complete
        // events: first, second, third, late

        #expect(events.values == ["first", "second", "third", "late"])
    }

    @Test func observeOnAQueueRunsTheObserverOnThatQueue() async throws {
        let handled = Promise<Int>()
        @Sendable func handle(_ result: Result<Int, any Error>) { handled.complete(with: result) }
        let promise = Promise<Int>()

        let results = DispatchQueue(label: "results")
        promise.observe(on: results) { result in handle(result) }

        promise.resolve(with: 5)
        #expect(try await handled.value(within: .seconds(30)) == 5)
    }

    @Test @MainActor func theViewControllersTestReadsTheTitleWithNoWaiting() {
        let viewController = ProductViewController {
            let product = Product(id: 7, name: "iPad Pro")
            return Promise(value: product)
        }
        viewController.viewWillAppear(false)
        // viewController.title == "iPad Pro"

        #expect(viewController.title == "iPad Pro")
    }

    @Test @MainActor func theViewControllerShowsAPromiseTheTestResolvesOnTheMainActorWithNoWaiting() {
        let promise = Promise<Product>()
        let viewController = ProductViewController { promise }
        viewController.viewWillAppear(false)
        // viewController.title == nil: still loading
        promise.resolve(with: Product(id: 7, name: "iPad Pro"))
        // viewController.title == "iPad Pro"

        #expect(viewController.title == "iPad Pro")
    }

    @Test @MainActor func theViewControllerShowsAProductThatArrivesLaterFromAnotherThread() async throws {
        let promise = Promise<Product>()
        let viewController = ProductViewController { promise }
        viewController.viewWillAppear(false)
        #expect(viewController.title == nil)

        DispatchQueue.global().async { promise.resolve(with: Product(id: 7, name: "iPad Pro")) }
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while viewController.title == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(viewController.title == "iPad Pro")
    }

    @Test func aMainActorObserverInNonisolatedCodeUpdatesTheViewController() async throws {
        let viewController = await ProductViewController { Promise() }
        let promise = Promise<Product>()
        show(promise, in: viewController)
        promise.resolve(with: Product(id: 8, name: "Pencil"))

        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while await viewController.title == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await viewController.title == "Pencil")
    }

    @Test func cancellingADerivedFutureCancelsTheFutureNothingElseNeeds() {
        let stopped = Counter()
        @Sendable func stopTheWork() { stopped.increment() }

        let request = Promise<String>()
        request.onCancel { stopTheWork() }

        let length = request.map { $0.count }
        length.cancel()
        // request.isCancelled == true: nothing else depended on it, so stopTheWork() ran

        #expect(request.isCancelled)
        #expect(stopped.value == 1)
    }

    @Test func aSharedFutureIsCancelledOnlyWhenEveryDependentIs() {
        let kept = Promise<String>()
        let keptUpper = kept.map { $0.uppercased() }
        _ = kept.map { $0.count }
        keptUpper.cancel()
        #expect(!kept.isCancelled)

        let shared = Promise<String>()
        let upper = shared.map { $0.uppercased() }
        let count = shared.map { $0.count }

        upper.cancel()  // shared.isCancelled == false: `count` still depends on it
        count.cancel()  // shared.isCancelled == true: nothing depends on it any more

        #expect(!upper.isPending && !count.isPending)
        #expect(shared.isCancelled)
    }

    @Test func anObservedFutureIsNotCancelledThroughItsDependents() {
        let watched = Promise<String>()
        watched.observe { _ in }
        let upper = watched.map { $0.uppercased() }
        upper.cancel()
        #expect(!watched.isCancelled)
        #expect(watched.cancel())
    }

    @Test func cancellingTheAwaitingTaskCancelsAFutureNothingElseNeeds() async throws {
        let slow = Promise<String>()
        let task = Task { try await slow.value }
        task.cancel()  // the task throws CancellationError; `slow` is cancelled, as nothing else needs it

        let released = Promise<Void>()
        slow.onCancel { released.resolve() }

        await #expect(throws: CancellationError.self) { try await task.value }
        try await released.value(within: .seconds(30))
        #expect(slow.isCancelled)
    }

    @Test func errorHandlersPassCancellationThrough() async {
        let cancelled = Future<Int>(error: CancellationError()).recover { _ in 0 }.mapError { _ in TestError() }
        #expect(cancelled.result?.error is CancellationError)
    }

    @Test func aDroppedPromiseFailsItsDerivedFutureWithBrokenPromise() async throws {
        let label = loadCount().map { "\($0) items" }
        // label fails with BrokenPromise: "A promise was dropped before it was completed (created at …)"

        let error = await #expect(throws: BrokenPromise.self) { try await label.value(within: .seconds(30)) }
        #if DEBUG
        #expect(error?.file?.hasSuffix("FuturesAndPromisesSamplesTests.swift") == true)
        #expect(error?.description.hasPrefix("A promise was dropped before it was completed (created at ") == true)
        #endif
    }

    @Test func aChainOfAHundredThousandMapsCompletesWithoutOverflowingTheStack() async throws {
        let start = Promise<Int>()
        var end: Future<Int> = start
        for _ in 0..<100_000 {
            end = end.map { $0 + 1 }
        }
        start.resolve(with: 0)  // completes all 100 000 futures; end's value is 100 000

        #expect(try await end.value(within: .seconds(30)) == 100_000)
    }

    @Test func aChainOfAHundredThousandObserversCompletingPromisesCompletesWithoutOverflowingTheStack() async throws {
        let first = Promise<Int>()
        var last = first
        for _ in 0..<100_000 {
            let next = Promise<Int>()
            last.observe { result in next.complete(with: result.map { $0 + 1 }) }
            last = next
        }
        first.resolve(with: 0)  // completes all 100 000 promises; last's value is 100 000

        #expect(try await last.value(within: .seconds(30)) == 100_000)
    }
}
