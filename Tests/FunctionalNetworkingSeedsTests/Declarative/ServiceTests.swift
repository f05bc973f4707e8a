import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Service")
struct ServiceTests {
    struct NotTheShop: Error, Equatable {}
    struct SawStatus: Error, Equatable { let status: Int }

    /// A transport that answers each request with the value of its `X-Trace` header and its
    /// `Authorization` header, without any network.
    private let echo = stubTransport { request in
        let trace = request.value(forHTTPHeaderField: "X-Trace") ?? "-"
        let authorization = request.value(forHTTPHeaderField: "Authorization") ?? "-"
        return (Data("\(trace) \(authorization)".utf8), stubResponse(for: request))
    }

    private func text(_ future: Future<Data>) async throws -> String {
        String(decoding: try await future.value(within: .seconds(30)), as: UTF8.self)
    }

    @Test func beforeEachAddsAHeaderTheServerSees() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let service = Service(
            baseURL: server.baseURL,
            beforeEach: { $0.setting(header: "X-Request-ID", to: "req-1") }
        )
        let networking = service.networking(using: makeTestSession().transport)

        _ = try await networking(.get("ping", from: service)).value(within: .seconds(30))

        let request = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(request.header("X-Request-ID") == "req-1")
        #expect(request.path == "/ping")
    }

    @Test func afterEachCanRejectAResponse() async throws {
        let server = try LoopbackServer { request in
            request.path == "/shop" ? .json("{}", headers: [.init("X-Shop", "1")]) : .json("{}")
        }
        defer { server.stop() }
        let service = Service(baseURL: server.baseURL).adding(afterEach: { data, response in
            guard (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Shop") != nil else { throw NotTheShop() }
            return (data, response)
        })
        let networking = service.networking(using: makeTestSession().transport)

        let accepted = await networking(.get("shop", from: service)).result(within: .seconds(30))
        let rejected = await networking(.get("elsewhere", from: service)).result(within: .seconds(30))

        #expect(accepted.success == Data("{}".utf8))
        #expect(rejected.failure as? NotTheShop == NotTheShop())
    }

    @Test func afterEachCanTransformAResponse() async throws {
        let server = try LoopbackServer { _ in .json(#"{"data":{"id":7,"name":"iPad Pro"}}"#) }
        defer { server.stop() }
        struct Envelope: Decodable { let data: Product }
        let service = Service(
            baseURL: server.baseURL,
            afterEach: { data, response in
                (try JSONEncoder().encode(JSONDecoder().decode(Envelope.self, from: data).data), response)
            })
        let networking = service.networking(using: makeTestSession().transport)

        let product: Product = try await networking(.get("products", 7, from: service)).decoded().value(within: .seconds(30))

        #expect(product == Product(id: 7, name: "iPad Pro"))
    }

    @Test func afterEachSeesAResponseBeforeItsStatusIsChecked() async throws {
        let server = try LoopbackServer { _ in .json(#"{"message":"No such product"}"#, status: 404) }
        defer { server.stop() }
        let service = Service(
            baseURL: server.baseURL,
            afterEach: { _, response in
                throw SawStatus(status: (response as? HTTPURLResponse)?.statusCode ?? 0)
            })

        let result = await service.networking(using: makeTestSession().transport)(.get("products", 99, from: service))
            .result(within: .seconds(30))

        #expect(result.failure as? SawStatus == SawStatus(status: 404))
    }

    @Test func aNonSuccessStatusStillFailsAfterTheHooks() async throws {
        let service = Service(baseURL: URL(string: "https://example.com")!)
        let result = await service.networking(using: stubTransport(status: 500))(.get("x", from: service))
            .result(within: .seconds(30))
        #expect((result.failure as? HTTPStatusError)?.status == 500)
    }

    @Test func aDerivedServiceAddsItsDefaultsOverItsParents() {
        let shop = Service(
            baseURL: URL(string: "https://api.example.com")!, defaultHeaders: ["Accept": "application/json", "X-App": "shop"])
        let admin = shop.headers {
            Header.authorization(bearer: "admin-token")
            Header("X-App", "admin")
        }
        #expect(
            Endpoint.get("x", from: admin).headers == [
                "Accept": "application/json", "X-App": "admin", "Authorization": "Bearer admin-token",
            ])
        #expect(Endpoint.get("x", from: shop).headers == ["Accept": "application/json", "X-App": "shop"])
    }

    @Test func aDerivedServicesHooksRunAfterItsParents() async throws {
        let base = Service(
            baseURL: URL(string: "https://api.example.com")!,
            beforeEach: { $0.setting(header: "X-Trace", to: "base") },
            afterEach: { data, response in (data + Data(" after-base".utf8), response) }
        )
        let derived =
            base
            .adding(beforeEach: { $0.setting(header: "X-Trace", to: ($0.headers["X-Trace"] ?? "") + ">derived") })
            .adding(afterEach: { data, response in (data + Data(" after-derived".utf8), response) })

        #expect(try await text(base.networking(using: echo)(.get("x", from: base))) == "base - after-base")
        #expect(
            try await text(derived.networking(using: echo)(.get("x", from: derived)))
                == "base>derived - after-base after-derived")
    }

    @Test func anAfterEachThatRejectsStopsTheHooksAfterIt() async throws {
        let service = Service(baseURL: URL(string: "https://api.example.com")!, afterEach: { _, _ in throw NotTheShop() })
            .adding(afterEach: { _, _ in throw SawStatus(status: 0) })
        let result = await service.networking(using: echo)(.get("x", from: service)).result(within: .seconds(30))
        #expect(result.failure as? NotTheShop == NotTheShop())
    }

    @Test func networkingDoesNotAddDefaultHeadersToEndpointsMadeElsewhere() async throws {
        let service = Service(baseURL: URL(string: "https://api.example.com")!, defaultHeaders: ["Authorization": "Bearer secret"])
        let networking = service.networking(using: echo)
        let elsewhere = Endpoint(baseURL: URL(string: "https://other.example.com")!, path: "/x")

        #expect(try await text(networking(elsewhere)) == "- -")
        #expect(try await text(networking(.get("x", from: service))) == "- Bearer secret")
    }

    @Test func aHeaderRemovedFromAnEndpointIsNotSent() async throws {
        let service = Service(baseURL: URL(string: "https://api.example.com")!, defaultHeaders: ["Authorization": "Bearer secret"])
        let anonymous = Endpoint.get("public", from: service).setting(header: "Authorization", to: nil)
        #expect(try await text(service.networking(using: echo)(anonymous)) == "- -")
    }
}
