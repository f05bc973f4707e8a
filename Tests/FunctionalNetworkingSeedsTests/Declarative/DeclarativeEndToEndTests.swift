import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures
import Testing

/// Declarative endpoints sent through a service to a LoopbackServer, checked on the server's
/// side.
@Suite("Declarative requests end to end")
struct DeclarativeEndToEndTests {
    struct Reading: Encodable {
        let celsius: Double
    }

    /// A server that answers every request with a product, and a shop service in front of it.
    private func makeShop() throws -> (LoopbackServer, Service) {
        let server = try LoopbackServer { _ in .json(#"{"id":7,"name":"iPad Pro"}"#, status: 201) }
        let shop = Service(baseURL: server.url(for: "/v1"))
            .headers {
                Header.accept("application/json")
                Header.userAgent("Shop/2.1")
            }
            .adding(beforeEach: { $0.setting(header: "X-Request-ID", to: "req-42") })
        return (server, shop)
    }

    @Test func aSwiftyNetworkingStyleRequestArrivesAsWritten() async throws {
        let (server, shop) = try makeShop()
        defer { server.stop() }
        let token: String? = "t0k3n"
        let languages = ["fr-CH", "en;q=0.8"]
        let category: String? = nil
        let id = 7

        let endpoint = try Endpoint.post("products", id, "reviews", from: shop)
            .headers {
                if let token {
                    Header.authorization(bearer: token)
                }
                for language in languages {
                    Header.acceptLanguage(language)
                }
            }
            .queryItems {
                Query("notify", true)
                Query("page", 2)
                Query("category", category)
                Query("draft")
            }
            .body {
                Key("rating", 5)
                Key("title", "Très bien")
                Key("tags", ["fast", "light"])
                Key("author") {
                    Key("name", "Ada")
                    Key("verified", true)
                }
            }
        let product: Product = try await shop.networking(using: makeTestSession().transport)(endpoint)
            .decoded().value(within: .seconds(30))

        #expect(product == Product(id: 7, name: "iPad Pro"))
        let request = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(request.method == "POST")
        #expect(request.path == "/v1/products/7/reviews")
        #expect(
            request.queryItems == [
                URLQueryItem(name: "notify", value: "true"),
                URLQueryItem(name: "page", value: "2"),
                URLQueryItem(name: "draft", value: nil),
            ])
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("User-Agent") == "Shop/2.1")
        #expect(request.header("Authorization") == "Bearer t0k3n")
        #expect(request.header("Accept-Language") == "fr-CH, en;q=0.8")
        #expect(request.header("X-Request-ID") == "req-42")
        #expect(request.header("Content-Type") == "application/json")
        #expect(
            try JSONValue.decoding(request.body) == [
                "rating": 5, "title": "Très bien", "tags": ["fast", "light"],
                "author": ["name": "Ada", "verified": true],
            ])
    }

    @Test func aHeaderValueWithANewlineGivesInvalidHeaderAndNothingReachesTheServer() async throws {
        let (server, shop) = try makeShop()
        defer { server.stop() }
        let networking = shop.networking(using: makeTestSession().transport)
        let bad = Endpoint.get("bad", from: shop).headers {
            Header("X-Note", "hello\r\nX-Injected: 1")
        }

        let result = await networking(bad).result(within: .seconds(30))
        _ = try await networking(.get("good", from: shop)).value(within: .seconds(30))

        #expect(result.failure as? Endpoint.Error == .invalidHeader(name: "X-Note"))
        let first = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(first.path == "/v1/good")
        #expect(first.header("X-Injected") == nil)
        #expect(server.requestCount == 1)
    }

    @Test func aBeforeEachHookCannotPutAMalformedHeaderOnTheWire() async throws {
        let (server, shop) = try makeShop()
        defer { server.stop() }
        let careless = shop.adding(beforeEach: { endpoint in
            endpoint.pathComponents == ["bad"] ? endpoint.setting(header: "X-Trace", to: "a\0b") : endpoint
        })
        let networking = careless.networking(using: makeTestSession().transport)

        let result = await networking(.get("bad", from: careless)).result(within: .seconds(30))
        _ = try await networking(.get("good", from: careless)).value(within: .seconds(30))

        #expect(result.failure as? Endpoint.Error == .invalidHeader(name: "X-Trace"))
        let first = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(first.path == "/v1/good")
        #expect(server.requestCount == 1)
    }

    @Test func anUnencodableBodyGivesTheClearErrorAndNothingReachesTheServer() async throws {
        let (server, shop) = try makeShop()
        defer { server.stop() }
        let networking = shop.networking(using: makeTestSession().transport)

        // The body modifiers throw, so the failure can also travel in a future, as
        // networking's own errors do.
        let result = await Future { try Endpoint.post("readings", from: shop).with(jsonBody: Reading(celsius: .nan)) }
            .flatMap { networking($0) }
            .result(within: .seconds(30))
        _ = try await networking(.get("good", from: shop)).value(within: .seconds(30))

        guard case BodyError.notEncodable(let type, let reason)? = result.failure else {
            Issue.record("expected notEncodable, got \(String(describing: result.failure))")
            return
        }
        #expect(type == "Reading")
        #expect(reason.contains(#""celsius""#))
        let first = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(first.path == "/v1/good")
        #expect(server.requestCount == 1)
    }
}
