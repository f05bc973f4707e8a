import Dispatch
import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of the `///` comments of Sources/Futures, one suite per source file, each sample
// inside a test as the comment shows it, with what it needs declared around it. Samples that
// reach the network reach a LoopbackServer on 127.0.0.1 that serves `/products/<id>`.

fileprivate struct Product: Codable, Equatable, Sendable {
    typealias ID = Int
    let id: ID
    let name: String
}

extension Product {
    fileprivate var reviewsID: Int { id }
}

fileprivate struct Review: Codable, Equatable, Sendable {
    let rating: Int
}

/// One shop for the whole test process, started on first use: `/products/<id>` answers the
/// product with that id, anything else 404.
fileprivate let docShop: LoopbackServer = {
    do {
        return try LoopbackServer { request in
            let parts = request.path.split(separator: "/")
            guard parts.count == 2, parts[0] == "products", let id = Int(parts[1]) else {
                return .status(404)
            }
            return .json(#"{"id":\#(id),"name":"Product \#(id)"}"#)
        }
    } catch {
        fatalError("The doc samples' shop did not start: \(error)")
    }
}()

extension Endpoint {
    fileprivate static func product(withID id: Product.ID) -> Endpoint {
        Endpoint(baseURL: docShop.url(for: "/"), path: "/products/\(id)")
    }
}

extension URLSession {
    fileprivate var productNetworking: (Product.ID) -> Future<Product> {
        let networking = chain(Endpoint.product, to: request)
        return chain(networking, to: Future.decoded)
    }
}

fileprivate func loadProduct(_ id: Product.ID) -> Future<Product> {
    Future(value: Product(id: id, name: "Product \(id)"))
}

fileprivate func loadReviews(for product: Product) -> Future<[Review]> {
    Future(value: [Review(rating: product.id % 5 + 1)])
}

fileprivate func loadReviews(_ reviewsID: Int) -> Future<[Review]> {
    Future(value: [Review(rating: reviewsID % 5 + 1)])
}

// MARK: - Backoff.swift

@Suite("Doc-comment samples: Backoff.swift")
struct BackoffDocCommentSamplesTests {
    @Test func anExponentialBackoffRetriesAfterTheInitialWait() async throws {
        let attempts = Counter()
        let id = 7
        @Sendable func loadProduct(_ id: Product.ID) -> Future<Product> {
            attempts.increment() == 1 ? Future(error: TestError("offline")) : Future(value: Product(id: id, name: "iPad Pro"))
        }

        let product = Future.retry(maxAttempts: 4, backoff: .exponential(initial: .milliseconds(200))) {
            loadProduct(id)
        }

        #expect(try await product.value(within: .seconds(30)) == Product(id: 7, name: "iPad Pro"))
        #expect(attempts.value == 2)
    }
}

// MARK: - AsyncFunctions.swift

@Suite("Doc-comment samples: AsyncFunctions.swift")
struct AsyncFunctionsDocCommentSamplesTests {
    @Test func asyncFunctionAwaitsTheFuturesValue() async throws {
        let productNetworking: @Sendable (Product.ID) -> Future<Product> = loadProduct

        let load: @Sendable (Product.ID) async throws -> Product = asyncFunction(from: productNetworking)
        let product = try await load(7)

        #expect(product == Product(id: 7, name: "Product 7"))
    }

    @Test func futureFunctionStartsTheAsyncWorkInAFuture() async throws {
        struct API: Sendable {
            func product(id: Product.ID) async throws -> Product { Product(id: id, name: "iPad Pro") }
        }
        let api = API()

        let loadProduct: (Product.ID) -> Future<Product> = futureFunction(from: api.product(id:))

        #expect(try await loadProduct(7).value(within: .seconds(30)) == Product(id: 7, name: "iPad Pro"))
    }
}

// MARK: - Chain.swift

@Suite("Doc-comment samples: Chain.swift")
struct ChainDocCommentSamplesTests {
    @Test func chainingAnEndpointToTheSessionGivesTheRequestOfAnID() async throws {
        let networking = chain(Endpoint.product, to: URLSession.shared.request)
        let future = networking(7)  // Product.ID -> Endpoint -> Future<Data>

        let data = try await future.value(within: .seconds(30))
        #expect(try JSONDecoder().decode(Product.self, from: data) == Product(id: 7, name: "Product 7"))
    }

    @Test func chainingToACurriedMethodDecodes() async throws {
        let networking = chain(Endpoint.product, to: URLSession.shared.request)
        let productNetworking: (Product.ID) -> Future<Product> = chain(networking, to: Future.decoded)

        #expect(try await productNetworking(7).value(within: .seconds(30)) == Product(id: 7, name: "Product 7"))
    }

    @Test func chainingTwoAsynchronousSteps() async throws {
        let loadProductReviews = chain(loadProduct, to: { product in loadReviews(for: product) })
        let reviews: Future<[Review]> = loadProductReviews(7)

        #expect(try await reviews.value(within: .seconds(30)) == [Review(rating: 3)])
    }
}

// MARK: - Combine.swift

@MainActor
fileprivate final class ProductScreen {
    private let loading: () -> Future<Product>
    var title: String?

    init(loading: @escaping () -> Future<Product>) {
        self.loading = loading
    }

    func load() -> Future<Product> {
        let product = loading()
        product.observe { [weak self] result in self?.title = (try? result.get())?.name }
        return product
    }
}

@Suite("Doc-comment samples: Combine.swift")
struct CombineDocCommentSamplesTests {
    @MainActor
    @Test func combiningAnIDWithALoaderGivesWhatAScreenNeeds() async throws {
        let id: Product.ID = 7

        let loading = combine(id, with: URLSession.shared.productNetworking)
        let screen = ProductScreen(loading: loading)

        #expect(try await screen.load().value(within: .seconds(30)) == Product(id: 7, name: "Product 7"))
        #expect(screen.title == "Product 7")
    }

    @Test func combiningTheFirstArgumentGivesAOneArgumentFunction() async throws {
        let shopURL = URL(string: "https://shop.example")!
        func loadProduct(_ shop: URL, _ id: Product.ID) -> Future<Product> {
            Future(value: Product(id: id, name: shop.host ?? "?"))
        }

        let loadFromShop = combine(shopURL, with: loadProduct)  // (Product.ID) -> Future<Product>

        #expect(try await loadFromShop(7).value(within: .seconds(30)) == Product(id: 7, name: "shop.example"))
    }

    @Test func combiningASendableFunctionGivesASendableOne() async throws {
        let productNetworking: @Sendable (Product.ID) -> Future<Product> = loadProduct

        let loadSeven: @Sendable () -> Future<Product> = combine(7, with: productNetworking)

        let loaded = try await Task { try await loadSeven().value(within: .seconds(30)) }.value
        #expect(loaded == Product(id: 7, name: "Product 7"))
    }
}

// MARK: - Curry.swift

@Suite("Doc-comment samples: Curry.swift")
struct CurryDocCommentSamplesTests {
    @Test func curryingFixesTheFirstArgument() async throws {
        let shopURL = URL(string: "https://shop.example")!
        func fetchProduct(_ id: Product.ID, from shop: URL) -> Future<Product> {
            Future(value: Product(id: id, name: shop.host ?? "?"))
        }

        func load(_ shop: URL, _ id: Product.ID) -> Future<Product> { fetchProduct(id, from: shop) }
        let loadFromShop = curry(load)(shopURL)  // (Product.ID) -> Future<Product>

        #expect(try await loadFromShop(7).value(within: .seconds(30)) == Product(id: 7, name: "shop.example"))
    }
}

// MARK: - Future+All.swift

@Suite("Doc-comment samples: Future+All.swift")
struct FutureAllDocCommentSamplesTests {
    @Test func allGivesTheValuesInOrder() async throws {
        let ids: [Product.ID] = [3, 1, 2]

        let products: Future<[Product]> = Future.all(ids.map(loadProduct))

        #expect(try await products.value(within: .seconds(30)).map(\.id) == [3, 1, 2])
    }

    @Test func raceGivesTheFirstResult() async throws {
        let id: Product.ID = 7
        let slowMirror = Promise<Product>()
        func primary(_ id: Product.ID) -> Future<Product> { Future(value: Product(id: id, name: "primary")) }
        func mirror(_ id: Product.ID) -> Future<Product> { slowMirror }

        let fastest = Future.race([primary(id), mirror(id)])

        #expect(try await fastest.value(within: .seconds(30)).name == "primary")
    }

    @Test func zipGivesBothValues() async throws {
        let shown = Recorder<String>()
        let id: Product.ID = 7
        @Sendable func show(_ product: Product, _ reviews: [Review]) { shown.append("\(product.name): \(reviews.count)") }
        let done = Promise<Void>()

        zip(loadProduct(id), loadReviews(id)).observe { result in
            if case .success(let (product, reviews)) = result { show(product, reviews) }
        }
        zip(loadProduct(id), loadReviews(id)).observe { _ in done.resolve() }

        try await done.value(within: .seconds(30))
        #expect(shown.values == ["Product 7: 1"])
    }
}

// MARK: - Future+Always.swift

@Suite("Doc-comment samples: Future+Always.swift")
struct FutureAlwaysDocCommentSamplesTests {
    @Test func alwaysRunsBeforeTheObserver() async throws {
        let events = Recorder<String>()
        final class Spinner: Sendable {
            let events: Recorder<String>
            init(events: Recorder<String>) { self.events = events }
            func stop() { events.append("spinner stopped") }
        }
        let spinner = Spinner(events: events)
        let shown = Promise<Void>()
        @Sendable func show(_ result: Result<Product, any Error>) {
            events.append("shown \((try? result.get())?.name ?? "nothing")")
            shown.resolve()
        }
        let id: Product.ID = 7

        loadProduct(id)
            .always { _ in spinner.stop() }
            .observe { result in show(result) }

        try await shown.value(within: .seconds(30))
        #expect(events.values == ["spinner stopped", "shown Product 7"])
    }
}

// MARK: - Future+Async.swift

@Suite("Doc-comment samples: Future+Async.swift")
struct FutureAsyncDocCommentSamplesTests {
    @Test func aFutureRunsAsyncWork() async throws {
        let session = URLSession.shared
        let request = URLRequest(url: docShop.url(for: "/products/7"))

        let future = Future { try await session.data(for: request).0 }

        let data = try await future.value(within: .seconds(30))
        #expect(try JSONDecoder().decode(Product.self, from: data).id == 7)
    }

    @Test func valueAwaitsTheFuture() async throws {
        let loader: (Product.ID) -> Future<Product> = loadProduct
        let id: Product.ID = 7

        let product = try await loader(id).value

        #expect(product.name == "Product 7")
    }
}

// MARK: - Future+Delay.swift

@Suite("Doc-comment samples: Future+Delay.swift")
struct FutureDelayDocCommentSamplesTests {
    @Test func delayHoldsTheValueBack() async throws {
        func search(_ query: String) -> Future<[String]> { Future(value: [query + "s"]) }
        let query = "pencil"
        let started = ContinuousClock.now

        let debounced = search(query).delay(for: .milliseconds(300))

        #expect(try await debounced.value(within: .seconds(30)) == ["pencils"])
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }
}

// MARK: - Future+Map.swift

@Suite("Doc-comment samples: Future+Map.swift")
struct FutureMapDocCommentSamplesTests {
    @Test func mapTransformsTheValue() async throws {
        let productsFuture = Future(value: [Product(id: 1, name: "iPad"), Product(id: 2, name: "Pencil")])

        let names: Future<[String]> = productsFuture.map { products in products.map(\.name) }

        #expect(try await names.value(within: .seconds(30)) == ["iPad", "Pencil"])
    }

    @Test func flatMapStartsTheNextStep() async throws {
        let id: Product.ID = 7

        let reviews: Future<[Review]> = loadProduct(id).flatMap { product in
            loadReviews(product.reviewsID)
        }

        #expect(try await reviews.value(within: .seconds(30)) == [Review(rating: 3)])
    }
}

// MARK: - Future+Observe.swift

@MainActor
fileprivate final class ProductLabel {
    var text: String?
}

fileprivate func show(_ future: Future<Product>, in label: ProductLabel) {
    future.observeOnMainActor { result in
        label.text = (try? result.get())?.name
    }
}

@Suite("Doc-comment samples: Future+Observe.swift")
struct FutureObserveDocCommentSamplesTests {
    @MainActor
    @Test func observingOnTheMainQueueSetsTheLabel() async throws {
        let label = ProductLabel()
        let loader: (Product.ID) -> Future<Product> = loadProduct
        let id: Product.ID = 7

        loader(id).observe(on: .main) { result in
            MainActor.assumeIsolated { label.text = (try? result.get())?.name }
        }

        try await withDocSampleTimeLimit { @MainActor in
            while label.text == nil { await Task.yield() }
        }
        #expect(label.text == "Product 7")
    }

    @MainActor
    @Test func observingOnTheMainActorSetsTheLabel() async throws {
        let label = ProductLabel()
        let promise = Promise<Product>()

        show(promise, in: label)
        promise.resolve(with: Product(id: 7, name: "iPad Pro"))

        try await withDocSampleTimeLimit { @MainActor in
            while label.text == nil { await Task.yield() }
        }
        #expect(label.text == "iPad Pro")
    }
}

// MARK: - Future+Recover.swift

@Suite("Doc-comment samples: Future+Recover.swift")
struct FutureRecoverDocCommentSamplesTests {
    enum AppError: Error {
        case network(any Error)
    }

    @Test func mapErrorWrapsTheFailure() async throws {
        let session = URLSession.shared
        let endpoint = Endpoint(baseURL: docShop.url(for: "/"), path: "/missing")

        let request = session.request(endpoint).mapError { error in AppError.network(error) }

        let error = await request.result(within: .seconds(30)).error
        guard case .network(let cause) = error as? AppError else {
            Issue.record("expected AppError.network, got \(String(describing: error))")
            return
        }
        #expect(cause is HTTPStatusError)
    }

    @Test func recoverGivesAFallbackValue() async throws {
        func loadProducts() -> Future<[Product]> { Future(error: TestError("offline")) }

        let products = loadProducts().recover { _ in [] }

        #expect(try await products.value(within: .seconds(30)) == [])
    }

    @Test func flatMapErrorStartsAFallbackFuture() async throws {
        @Sendable func loadFromNetwork(_ id: Product.ID) -> Future<Product> { Future(error: TestError("offline")) }
        @Sendable func loadFromDisk(_ id: Product.ID) -> Future<Product> { Future(value: Product(id: id, name: "cached")) }
        let id: Product.ID = 7

        let product = loadFromNetwork(id).flatMapError { _ in loadFromDisk(id) }

        #expect(try await product.value(within: .seconds(30)) == Product(id: 7, name: "cached"))
    }
}

// MARK: - Future+Retry.swift

@Suite("Doc-comment samples: Future+Retry.swift")
struct FutureRetryDocCommentSamplesTests {
    @Test func retryWaitsTheBackoffAndTriesAgain() async throws {
        let attempts = Counter()
        let id: Product.ID = 7
        @Sendable func loadProduct(_ id: Product.ID) -> Future<Product> {
            attempts.increment() == 1 ? Future(error: TestError("offline")) : Future(value: Product(id: id, name: "iPad Pro"))
        }
        let started = ContinuousClock.now

        let product = Future.retry(maxAttempts: 3, backoff: .constant(.seconds(1))) {
            loadProduct(id)
        }

        #expect(try await product.value(within: .seconds(30)).name == "iPad Pro")
        #expect(attempts.value == 2)
        #expect(ContinuousClock.now - started >= .seconds(1))
    }
}

// MARK: - Future+Timeout.swift

@Suite("Doc-comment samples: Future+Timeout.swift")
struct FutureTimeoutDocCommentSamplesTests {
    @Test func aTimeoutLeavesAFastFutureAlone() async throws {
        let id: Product.ID = 7

        let product = try await loadProduct(id).timeout(after: .seconds(10)).value

        #expect(product.id == 7)
    }
}

// MARK: - Future.swift

@Suite("Doc-comment samples: Future.swift")
struct FutureDocCommentSamplesTests {
    @Test func resolvingThePromiseRunsTheObserver() {
        let used = Recorder<Data>()
        let reported = Recorder<String>()
        @Sendable func use(_ data: Data) { used.append(data) }
        @Sendable func report(_ error: any Error) { reported.append("\(error)") }
        let data = Data("iPad Pro".utf8)

        let promise = Promise<Data>()
        let future: Future<Data> = promise
        future.observe { result in
            switch result {
            case .success(let data): use(data)
            case .failure(let error): report(error)
            }
        }
        promise.resolve(with: data)

        #expect(used.values == [data])
        #expect(reported.values.isEmpty)
    }

    @Test func aReadyFutureHasItsValue() {
        let ready = Future(value: Product(id: 7, name: "iPad Pro"))

        #expect(ready.result?.success == Product(id: 7, name: "iPad Pro"))
    }

    @MainActor fileprivate final class ProductViewController {
        var title: String?
        let loading: () -> Future<Product>

        init(loading: @escaping () -> Future<Product>) {
            self.loading = loading
        }

        func viewWillAppear() {
            loading().observe { [weak self] result in
                switch result {
                case .success(let product): self?.title = product.name
                case .failure: self?.title = "Failed to load"
                }
            }
        }
    }

    @MainActor
    @Test func aMainActorViewControllerObservesItsLoading() async throws {
        let promise = Promise<Product>()
        let viewController = ProductViewController(loading: { promise })

        viewController.viewWillAppear()
        promise.resolve(with: Product(id: 7, name: "iPad Pro"))

        try await withDocSampleTimeLimit { @MainActor in
            while viewController.title == nil { await Task.yield() }
        }
        #expect(viewController.title == "iPad Pro")
    }

    @Test func cancellingARequestGivesCancellationError() async throws {
        let session = URLSession.shared

        let download = session.request(.product(withID: 7))
        download.cancel()  // cancels the URLSession request; observers see CancellationError

        #expect(await download.result(within: .seconds(30)).error is CancellationError)
    }
}

// MARK: - FutureCycle.swift

@Suite("Doc-comment samples: FutureCycle.swift")
struct FutureCycleDocCommentSamplesTests {
    @Test func aFutureThatFollowsItselfFailsAtOnce() async throws {
        final class Cache: Sendable {
            let slot = Slot<Future<Product>>()
            var current: Future<Product> { slot.value ?? Future(error: TestError("empty")) }
        }
        let cache = Cache()
        let refresh = Promise<Void>()

        let reload = refresh.flatMap { _ in cache.current }  // `cache.current` is `reload` itself
        // reload fails at once: "A future cannot follow itself: a flatMap, flatMapError or retry
        // handler returned the future it completes, …"
        cache.slot.value = reload
        refresh.resolve()

        let error = await reload.result(within: .seconds(30)).error
        #expect(error as? FutureCycle == FutureCycle(length: 1))
        #expect("\(error.map { "\($0)" } ?? "")".hasPrefix("A future cannot follow itself"))
        cache.slot.value = nil
    }
}

// MARK: - Promise.swift

@Suite("Doc-comment samples: Promise.swift")
struct PromiseDocCommentSamplesTests {
    struct Client: Sendable {
        let session: URLSession

        func request(_ endpoint: Endpoint) -> Future<Data> {
            let promise = Promise<Data>()
            guard let url = endpoint.url else {
                promise.reject(with: Endpoint.Error.invalidURL)
                return promise
            }
            let task = session.dataTask(with: url) { data, _, error in
                if let error {
                    promise.reject(with: error)
                } else {
                    promise.resolve(with: data ?? Data())
                }
            }
            promise.onCancel { task.cancel() }
            task.resume()
            return promise
        }
    }

    @Test func aPromiseWrapsACompletionHandler() async throws {
        let client = Client(session: .shared)

        let data = try await client.request(.product(withID: 7)).value(within: .seconds(30))

        #expect(try JSONDecoder().decode(Product.self, from: data) == Product(id: 7, name: "Product 7"))
        let invalid = Endpoint(destination: .server(scheme: "http", host: "", port: nil), path: "/products/7")
        #expect(await client.request(invalid).result(within: .seconds(30)).error as? Endpoint.Error == .invalidURL)
    }

    @Test func cancellingThePromiseCancelsTheTask() async throws {
        let started = Promise<Void>()
        @Sendable func work(_ promise: Promise<Data>) async throws {
            started.resolve()
            try await Task.sleep(for: .seconds(30))
            promise.resolve(with: Data())
        }

        let promise = Promise<Data>()
        let task = Task { try await work(promise) }
        promise.onCancel { task.cancel() }

        try await started.value(within: .seconds(30))
        promise.cancel()
        let outcome = await task.result
        #expect(outcome.error is CancellationError)
    }
}
