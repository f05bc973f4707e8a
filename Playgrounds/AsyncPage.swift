import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Page 5: futures and async/await, both ways.
let asyncPage = Page(name: "async", title: "async/await both ways") {
    let server = try ShopServer.start()
    defer { server.stop() }
    let session = NetworkSession(configuration: .ephemeral)
    let send = networking(from: session.transport)
    let shop = server.baseURL

    // A future-returning loader, awaited.
    let productNetworking: @Sendable (Product.ID) -> Future<Product> = chain(
        chain({ @Sendable (id: Product.ID) in Endpoint(baseURL: shop, path: "/products/\(id)") }, to: send),
        to: Future.decoded
    )
    let product = try await productNetworking(1).value
    print("await future.value →", product)

    // The same loader as an async function, and an async function as a loader.
    let loadProduct = asyncFunction(from: productNetworking)
    print("asyncFunction(from:) →", try await loadProduct(7))
    let loadName = futureFunction(from: { (id: Product.ID) async throws -> String in try await loadProduct(id).name })
    print("futureFunction(from:) →", try await loadName(8).map { "“\($0)”" }.value)

    // Cancelling the awaiting task cancels the request.
    let stalled = Task { try await send(Endpoint(baseURL: shop, path: "/never").with(timeout: 30)).value }
    stalled.cancel()
    do {
        _ = try await stalled.value
    } catch {
        print("a cancelled task gets:", type(of: error))
    }
}
