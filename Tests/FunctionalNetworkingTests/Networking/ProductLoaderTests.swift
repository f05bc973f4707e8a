import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A product loader and its screens, written the functional-networking way: loaders are
// functions made with `combine` and `chain`, screens receive them as closures. UIKit's view
// controller is a plain main-actor class here.

extension Endpoint {
    static func product(withID id: Product.ID) -> Endpoint {
        Endpoint(baseURL: URL(string: "https://shop.example")!, path: "/products/\(id)")
    }
}

class ProductLoader {
    private let networking: Networking

    init(networking: @escaping Networking = URLSession.shared.request) {
        self.networking = networking
    }

    func loadProduct(withID id: Product.ID) -> Future<Product> {
        let endpoint = Endpoint.product(withID: id)
        return networking(endpoint).decoded()
    }

    func loadProductByCombining(withID id: Product.ID) -> Future<Product> {
        let endpoint = Endpoint.product(withID: id)
        let networking = combine(endpoint, with: self.networking)
        return networking().decoded()
    }

    func loadProductByChaining(withID id: Product.ID) -> Future<Product> {
        let networking = chain(Endpoint.product, to: self.networking)
        return networking(id).decoded()
    }

    func loadProductByCurrying(withID id: Product.ID) -> Future<Product> {
        let networking = chain(Endpoint.product, to: self.networking)
        return chain(networking, to: Future.decoded)(id)
    }
}

extension URLSession {
    var productNetworking: (Product.ID) -> Future<Product> {
        let networking = chain(Endpoint.product, to: request)
        return chain(networking, to: Future.decoded)
    }
}

@MainActor
final class ProductScreen {
    typealias Loading = () -> Future<Product>

    private let loading: Loading
    private(set) var title = "Loading…"
    private let rendered = Promise<String>()

    init(loading: @escaping Loading) {
        self.loading = loading
    }

    func viewWillAppear() {
        loading().observe { [weak self] result in
            switch result {
            case .success(let product):
                self?.render(product.name)
            case .failure(let error):
                self?.render("Error: \(error)")
            }
        }
    }

    private func render(_ text: String) {
        title = text
        rendered.resolve(with: text)
    }

    /// The rendered title, for tests: bounded, never hangs.
    func renderedTitle() async throws -> String {
        try await rendered.timeout(after: .seconds(30)).value
    }
}

@MainActor
func makeProductScreen(forID id: Product.ID) -> ProductScreen {
    let networking = combine(id, with: URLSession.shared.productNetworking)
    return ProductScreen(loading: networking)
}

/// Sends every endpoint to `base` instead of its own host: how the tests point the seed's
/// fixed `https://shop.example` endpoints at a LoopbackServer.
func retargeted(_ networking: @escaping Networking, to base: URL) -> Networking {
    { endpoint in
        var endpoint = endpoint
        endpoint.destination = .baseURL(base)
        return networking(endpoint)
    }
}

@Suite("Loaders made with combine and chain, and screens that receive them")
struct ProductLoaderTests {
    let productJSON = Data(#"{"id":7,"name":"iPad Pro"}"#.utf8)

    @Test func everyLoaderFormDecodesTheProductFromStubNetworking() throws {
        let loader = ProductLoader(networking: stubNetworking(data: productJSON))
        let expected = Product(id: 7, name: "iPad Pro")
        #expect(try loader.loadProduct(withID: 7).result?.get() == expected)
        #expect(try loader.loadProductByCombining(withID: 7).result?.get() == expected)
        #expect(try loader.loadProductByChaining(withID: 7).result?.get() == expected)
        #expect(try loader.loadProductByCurrying(withID: 7).result?.get() == expected)
    }

    @Test func theLoaderAsksForTheProductsEndpoint() {
        let asked = Promise<Endpoint>()
        let loader = ProductLoader(networking: { endpoint in
            asked.resolve(with: endpoint)
            return Future(value: Data())
        })
        _ = loader.loadProduct(withID: 42)
        #expect(asked.result?.success?.url?.absoluteString == "https://shop.example/products/42")
    }

    @Test func productNetworkingHasTheSeedsSignature() {
        let loading: (Product.ID) -> Future<Product> = URLSession.shared.productNetworking
        _ = loading  // built without running: the tests never leave 127.0.0.1
    }

    @Test @MainActor func theScreenRendersWhatItsClosureLoadsWithoutMocks() async throws {
        let screen = ProductScreen {
            let product = Product(id: 7, name: "iPad Pro")
            return Promise(value: product)
        }
        screen.viewWillAppear()
        // screen.title == "iPad Pro"

        #expect(screen.title == "iPad Pro")  // at once: the promise has already succeeded
        #expect(try await screen.renderedTitle() == "iPad Pro")
    }

    @Test @MainActor func theScreenRendersAFailure() async throws {
        let screen = ProductScreen { Future(error: HTTPStatusError(status: 404)) }
        screen.viewWillAppear()
        #expect(try await screen.renderedTitle().hasPrefix("Error: The server answered 404"))
    }

    @Test @MainActor func aScreenMadeByCombineStartsInTheLoadingState() {
        let screen = makeProductScreen(forID: 7)
        #expect(screen.title == "Loading…")  // not shown: it would leave 127.0.0.1
    }

    @Test func theLoadersWorkEndToEndAgainstALoopbackServer() async throws {
        let server = try makeShopServer()
        defer { server.stop() }
        let networking = retargeted(makeTestSession().request, to: server.baseURL)
        let loader = ProductLoader(networking: networking)
        let expected = Product(id: 7, name: "iPad Pro")
        #expect(try await loader.loadProduct(withID: 7).value(within: .seconds(30)) == expected)
        #expect(try await loader.loadProductByCurrying(withID: 7).value(within: .seconds(30)) == expected)
        let missing = await loader.loadProductByChaining(withID: 99).result()
        #expect((missing.failure as? HTTPStatusError)?.status == 404)
        #expect(server.requestCount == 3)
    }

    @Test @MainActor func theScreenWorksEndToEndWithAChainedCombinedLoader() async throws {
        let server = try makeShopServer()
        defer { server.stop() }
        let networking = chain(Endpoint.product, to: retargeted(makeTestSession().request, to: server.baseURL))
        let productNetworking: (Product.ID) -> Future<Product> = chain(networking, to: Future.decoded)
        let screen = ProductScreen(loading: combine(7, with: productNetworking))
        screen.viewWillAppear()
        #expect(try await screen.renderedTitle() == "iPad Pro")
        let request = await server.takeRequest(timeout: .seconds(30))
        #expect(request?.path == "/products/7")
    }
}
