import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Page 2: loaders built by partial application and `chain`, and a service that takes them as
/// closures — so its test needs no mocks.
let loadersPage = Page(name: "loaders", title: "Loaders from combine and chain, against a real server") {
    let server = try ShopServer.start()
    defer { server.stop() }
    // The session is made once, here, and kept: every call below shares its connections.
    let session = NetworkSession(configuration: .ephemeral)
    print("shop running at \(server.baseURL)")

    // Endpoints are values made by functions.
    let shop = server.baseURL
    let productEndpoint = { @Sendable (id: Product.ID) in Endpoint(baseURL: shop, path: "/products/\(id)") }
    let catalogueEndpoint = Endpoint(baseURL: shop, path: "/products")

    // Networking is a function: (Endpoint) -> Future<Data>, made from the session's transport.
    let send = networking(from: session.transport)

    // chain: Product.ID -> Endpoint -> Future<Data>, then the curried Future.decoded.
    let productNetworking: @Sendable (Product.ID) -> Future<Product> = chain(chain(productEndpoint, to: send), to: Future.decoded)
    print("chain(productEndpoint, to: send) then Future.decoded →", try await productNetworking(7).value)

    // combine: fix the argument, get the () -> Future<Product> a screen needs.
    let loadPencil = combine(8, with: productNetworking)
    print("combine(8, with: productNetworking)() →", try await loadPencil().value)

    // A service receives loaders as closures.
    let service = ShopService(
        loadCatalogue: combine(catalogueEndpoint, with: chain(send, to: Future.decoded)),
        loadProduct: productNetworking
    )
    print("the cheapest product:", try await service.cheapestProduct().value)

    // Its test passes closures that return ready futures: no mocks, no protocols.
    let testService = ShopService(
        loadCatalogue: { Promise(value: [Product(id: 1, name: "Test", price: 5), Product(id: 2, name: "Cheap", price: 1)]) },
        loadProduct: { id in Promise(value: Product(id: id, name: "Cheap", price: 1)) }
    )
    print("the same service in a test, with closures for loaders:", try await testService.cheapestProduct().value)

    // Errors are values the caller can act on.
    do {
        _ = try await productNetworking(99).value
    } catch let error as HTTPStatusError {
        print("a missing product:", error)
    }
}

/// A service that knows nothing of networking: it is given functions.
struct ShopService {
    let loadCatalogue: @Sendable () -> Future<[Product]>
    let loadProduct: @Sendable (Product.ID) -> Future<Product>

    /// Loads the catalogue, then the full record of its cheapest product.
    func cheapestProduct() -> Future<Product> {
        let loadProduct = loadProduct
        return loadCatalogue().flatMap { products in
            guard let cheapest = products.min(by: { $0.price < $1.price }) else {
                throw CocoaError(.coderValueNotFound)
            }
            return loadProduct(cheapest.id)
        }
    }
}
