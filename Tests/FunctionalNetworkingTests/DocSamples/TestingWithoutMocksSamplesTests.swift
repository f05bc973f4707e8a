import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/TestingWithoutMocks.md, as the article shows them.
// `Product`, `ProductLoader` and `Endpoint.product(withID:)` (ProductLoaderTests.swift) are the
// test target's own. So is the `Future.value(within:)` the other tests use (Support/Shop.swift),
// which also stretches its limit under a sanitizer; the article's helper, as written, is below,
// on futures of a value of this file only, so that the two never meet.

fileprivate struct Bounded: Equatable, Sendable {
    let number: Int
}

extension Future where Value == Bounded {
    /// The value, bounded by a real-time limit.
    func value(within limit: Duration = .seconds(30)) async throws -> Value {
        try await timeout(after: limit).value
    }
}

fileprivate struct ProductService: Sendable {
    let loadProduct: @Sendable (Product.ID) -> Future<Product>

    func name(of id: Product.ID) -> Future<String> {
        loadProduct(id).map { $0.name }
    }
}

@Suite("Samples: Testing without mocks")
struct TestingWithoutMocksSamplesTests {
    @Test func theArticlesBoundedWaitGivesTheValueOrFailsAtItsLimit() async throws {
        #expect(try await Promise(value: Bounded(number: 7)).value(within: .seconds(30)) == Bounded(number: 7))
        let never = Promise<Bounded>()
        await #expect(throws: TimeoutError.self) { try await never.value(within: .milliseconds(50)) }
    }

    @Test func theServiceNamesTheLoadedProduct() async throws {
        let service = ProductService { id in Promise(value: Product(id: id, name: "iPad Pro")) }
        #expect(try await service.name(of: 7).value(within: .seconds(30)) == "iPad Pro")
    }

    @Test func theServicePassesAMissingProductOn() async {
        let service = ProductService { _ in Future(error: HTTPStatusError(status: 404)) }
        await #expect(throws: HTTPStatusError.self) { try await service.name(of: 7).value(within: .seconds(30)) }
    }

    @Test func theNameIsPendingUntilTheProductArrives() async throws {
        let pending = Promise<Product>()
        let service = ProductService { _ in pending }

        let name = service.name(of: 7)
        #expect(name.isPending)

        pending.resolve(with: Product(id: 7, name: "iPad Pro"))
        #expect(try await name.value(within: .seconds(30)) == "iPad Pro")
    }

    @Test func theBoundedWaitFailsWithTimeoutErrorInsteadOfHanging() async {
        let never = Promise<Int>()
        await #expect(throws: TimeoutError.self) { try await never.value(within: .milliseconds(50)) }
    }

    @Test func theLoaderDecodesWhatTheNetworkingFunctionReturns() throws {
        let loader = ProductLoader(networking: stubNetworking(data: Data(#"{"id":7,"name":"iPad Pro"}"#.utf8)))
        let product = try loader.loadProduct(withID: 7).result?.get()
        #expect(product == Product(id: 7, name: "iPad Pro"))
    }

    @Test func aStubTransportAnswersWithoutANetwork() async throws {
        let transport = stubTransport { request in
            request.url?.path == "/products/7"
                ? (Data(#"{"id":7,"name":"iPad Pro"}"#.utf8), stubResponse(for: request))
                : (Data(), stubResponse(for: request, status: 404))
        }
        let send = networking(from: transport)

        let product: Product = try await send(.product(withID: 7)).decoded().value(within: .seconds(30))
        #expect(product.name == "iPad Pro")
        await #expect(throws: HTTPStatusError.self) { try await send(.product(withID: 8)).value(within: .seconds(30)) }
    }

    @Test func theLoaderAsksTheServerForTheProduct() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.json(#"{"id":7,"name":"iPad Pro"}"#))

        let send = networking(from: NetworkSession.shared.transport)
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/products/7")
        let product: Product = try await send(endpoint).decoded().value(within: .seconds(30))

        #expect(product == Product(id: 7, name: "iPad Pro"))
        let request = try #require(await server.takeRequest())
        #expect(request.method == "GET")
        #expect(request.path == "/products/7")
    }

    @Test func queuedResponsesComeFirstThenTheDispatcherAnswers() async throws {
        let server = try LoopbackServer { request in
            request.path == "/products/7" ? .json(#"{"id":7,"name":"iPad Pro"}"#) : .status(404)
        }
        server.enqueue(.status(503))  // the next request gets 503
        server.enqueue(.text("slow").delayed(by: .seconds(1)))  // the one after waits a second
        defer { server.stop() }

        let send = networking(from: NetworkSession.shared.transport)
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/products/7")
        let first = await send(endpoint).result(within: .seconds(30))
        #expect((first.failure as? HTTPStatusError)?.status == 503)
        let started = ContinuousClock.now
        #expect(try await send(endpoint).value(within: .seconds(30)) == Data("slow".utf8))
        #expect(ContinuousClock.now - started >= .seconds(1))
        let product: Product = try await send(endpoint).decoded().value(within: .seconds(30))
        #expect(product.name == "iPad Pro")
        let missing = await send(Endpoint(baseURL: server.baseURL, path: "/products/8")).result(within: .seconds(30))
        #expect((missing.failure as? HTTPStatusError)?.status == 404)
    }

    @Test func aLoadThatTakesTooLongFailsWithTimeoutError() async throws {
        let clock = TestClock()
        let pending = Promise<Product>()
        let limited = pending.timeout(after: .seconds(10), clock: clock)

        clock.advance(by: .seconds(9))
        #expect(limited.isPending)
        clock.advance(by: .seconds(1))

        await #expect(throws: TimeoutError.self) { try await limited.value(within: .seconds(30)) }
    }
}
