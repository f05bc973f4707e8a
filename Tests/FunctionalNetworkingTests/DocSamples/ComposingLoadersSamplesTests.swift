import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of Futures.docc/ComposingLoaders.md. `Product` (Support/Shop.swift),
// `Endpoint.product(withID:)`, `URLSession.productNetworking` and `makeProductScreen(forID:)`
// (ProductLoaderTests.swift) are the article's, as written; each step's loader and the article's screen
// are nested in an enum here, so that they do not clash with the seed tests' own.

fileprivate enum OwningASession {
    final class ProductLoader {
        private let urlSession: URLSession

        init(urlSession: URLSession = .shared) {
            self.urlSession = urlSession
        }

        func loadProduct(withID id: Product.ID) -> Future<Product> {
            let endpoint = Endpoint.product(withID: id)
            return urlSession.request(endpoint).decoded()
        }
    }
}

fileprivate enum TakingNetworking {
    final class ProductLoader {
        private let networking: Networking

        init(networking: @escaping Networking = URLSession.shared.request) {
            self.networking = networking
        }

        func loadProduct(withID id: Product.ID) -> Future<Product> {
            let endpoint = Endpoint.product(withID: id)
            return networking(endpoint).decoded()
        }
    }
}

fileprivate enum Combining {
    final class ProductLoader {
        private let networking: Networking

        init(networking: @escaping Networking) {
            self.networking = networking
        }

        func loadProduct(withID id: Product.ID) -> Future<Product> {
            let endpoint = Endpoint.product(withID: id)
            let networking = combine(endpoint, with: self.networking)
            return networking().decoded()
        }
    }
}

fileprivate enum Chaining {
    final class ProductLoader {
        private let networking: Networking

        init(networking: @escaping Networking) {
            self.networking = networking
        }

        func loadProduct(withID id: Product.ID) -> Future<Product> {
            let networking = chain(Endpoint.product, to: self.networking)
            return networking(id).decoded()
        }
    }
}

fileprivate enum Currying {
    final class ProductLoader {
        private let networking: Networking

        init(networking: @escaping Networking) {
            self.networking = networking
        }

        func loadProduct(withID id: Product.ID) -> Future<Product> {
            let networking = chain(Endpoint.product, to: self.networking)
            return chain(networking, to: Future.decoded)(id)
        }
    }
}

fileprivate enum Screens {
    @MainActor
    final class ProductScreen {
        typealias Loading = () -> Future<Product>

        private let loading: Loading
        private(set) var title = "Loading…"

        init(loading: @escaping Loading) {
            self.loading = loading
        }

        func viewWillAppear() {
            loading().observe { [weak self] result in
                switch result {
                case .success(let product): self?.title = product.name
                case .failure(let error): self?.title = "Error: \(error)"
                }
            }
        }
    }
}

@MainActor
fileprivate func waitForTitle(of screen: Screens.ProductScreen) async -> String {
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while screen.title == "Loading…", ContinuousClock.now < deadline {
        await Task.yield()
    }
    return screen.title
}

@Suite("Samples: Composing loaders with combine and chain")
struct ComposingLoadersSamplesTests {
    let productJSON = Data(#"{"id":7,"name":"iPad Pro"}"#.utf8)
    let expected = Product(id: 7, name: "iPad Pro")

    @Test func theSessionOwningLoaderIsMadeFromASession() {
        // Its endpoint names https://shop.example, which tests never contact: it is only built.
        _ = OwningASession.ProductLoader(urlSession: makeTestSession())
        _ = OwningASession.ProductLoader()
    }

    @Test func everyStepLoadsTheSameProductFromStubNetworking() throws {
        let networking = stubNetworking(data: productJSON)
        #expect(try TakingNetworking.ProductLoader(networking: networking).loadProduct(withID: 7).result?.get() == expected)
        #expect(try Combining.ProductLoader(networking: networking).loadProduct(withID: 7).result?.get() == expected)
        #expect(try Chaining.ProductLoader(networking: networking).loadProduct(withID: 7).result?.get() == expected)
        #expect(try Currying.ProductLoader(networking: networking).loadProduct(withID: 7).result?.get() == expected)
    }

    @Test func everyStepAsksForTheProductsEndpoint() {
        let asked = Collected<String>()
        let networking: Networking = { endpoint in
            asked.append(endpoint.url?.absoluteString ?? "no URL")
            return Future(value: Data())
        }
        _ = TakingNetworking.ProductLoader(networking: networking).loadProduct(withID: 1)
        _ = Combining.ProductLoader(networking: networking).loadProduct(withID: 2)
        _ = Chaining.ProductLoader(networking: networking).loadProduct(withID: 3)
        _ = Currying.ProductLoader(networking: networking).loadProduct(withID: 4)
        #expect(asked.values == (1...4).map { "https://shop.example/products/\($0)" })
    }

    @Test func theCurriedLoaderWorksEndToEndAgainstALoopbackServer() async throws {
        let server = try makeShopServer()
        defer { server.stop() }
        let networking = retargeted(makeTestSession().request, to: server.baseURL)
        let loader = Currying.ProductLoader(networking: networking)
        #expect(try await loader.loadProduct(withID: 7).value(within: .seconds(30)) == expected)
        let missing = await loader.loadProduct(withID: 99).result(within: .seconds(30))
        #expect((missing.failure as? HTTPStatusError)?.status == 404)
    }

    @Test func productNetworkingIsOneFunctionOfTheSession() async throws {
        let productNetworking: (Product.ID) -> Future<Product> = URLSession.shared.productNetworking
        _ = productNetworking  // built, not called: its endpoint names https://shop.example
        // The same chain, with the session's request pointed at a LoopbackServer:
        let server = try makeShopServer()
        defer { server.stop() }
        let request = retargeted(makeTestSession().request, to: server.baseURL)
        let networking = chain(Endpoint.product, to: request)
        let loopbackProductNetworking: (Product.ID) -> Future<Product> = chain(networking, to: Future.decoded)
        #expect(try await loopbackProductNetworking(7).value(within: .seconds(30)) == expected)
    }

    @Test @MainActor func theScreenShowsWhatAClosureReturningAPromiseGivesItWithNoWaiting() {
        let screen = Screens.ProductScreen {
            let product = Product(id: 7, name: "iPad Pro")
            return Promise(value: product)
        }
        screen.viewWillAppear()
        // screen.title == "iPad Pro"

        #expect(screen.title == "iPad Pro")
    }

    @Test @MainActor func theScreenShowsAFailureFromAClosureReturningAnErrorWithNoWaiting() {
        let screen = Screens.ProductScreen { Future(error: HTTPStatusError(status: 404)) }
        screen.viewWillAppear()
        #expect(screen.title.hasPrefix("Error: The server answered 404"))
    }

    @Test @MainActor func theScreenStaysLoadingWhileThePromiseIsPending() async throws {
        let pending = Promise<Product>()
        let screen = Screens.ProductScreen { pending }
        screen.viewWillAppear()
        await Task.yield()
        #expect(screen.title == "Loading…")
        pending.resolve(with: expected)
        #expect(await waitForTitle(of: screen) == "iPad Pro")
    }

    @Test @MainActor func theAppMakesTheScreenByCombiningTheIDWithProductNetworking() {
        let screen = makeProductScreen(forID: 7)
        #expect(screen.title == "Loading…")  // not shown: loading would leave 127.0.0.1
    }
}
