import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures
import Testing

@Suite("Endpoint from a service")
struct EndpointServiceTests {
    private let shop = Service(
        baseURL: URL(string: "https://api.example.com/v1")!,
        defaultHeaders: ["Accept": "application/json", "User-Agent": "Shop/2.1"]
    )

    @Test func eachValueIsOneRawSegmentBelowTheBaseURL() throws {
        let id = 42
        let endpoint = Endpoint.get("products", id, "a/b", "with space", "café", from: shop)
        #expect(endpoint.pathComponents == ["products", "42", "a/b", "with space", "café"])
        #expect(endpoint.url?.absoluteString == "https://api.example.com/v1/products/42/a%2Fb/with%20space/caf%C3%A9")
    }

    @Test func numbersBoolsUUIDsAndOwnTypesGiveTheirDescriptions() throws {
        struct Slug: CustomStringConvertible {
            var description: String { "spring-sale" }
        }
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let endpoint = Endpoint(.get, "orders", id, 3.5, true, Slug(), from: shop)
        #expect(endpoint.pathComponents == ["orders", id.uuidString, "3.5", "true", "spring-sale"])
    }

    @Test func aListOfValuesGivesOneSegmentEach() {
        let folders: [any CustomStringConvertible] = ["docs", 2024, "q1/q2"]
        let endpoint = Endpoint(.put, pathComponents: ["files"] + folders, from: shop)
        #expect(endpoint.method == .put)
        #expect(endpoint.pathComponents == ["files", "docs", "2024", "q1/q2"])
    }

    @Test func eachFactoryGivesItsMethod() {
        #expect(Endpoint.get("x", from: shop).method == .get)
        #expect(Endpoint.post("x", from: shop).method == .post)
        #expect(Endpoint.put("x", from: shop).method == .put)
        #expect(Endpoint.patch("x", from: shop).method == .patch)
        #expect(Endpoint.delete("x", from: shop).method == .delete)
        #expect(Endpoint.head("x", from: shop).method == .head)
        #expect(Endpoint(.options, "x", from: shop).method == .options)
        #expect(Endpoint(.get, from: shop).url?.absoluteString == "https://api.example.com/v1")
    }

    @Test func endpointsStartWithTheServicesDefaultHeaders() {
        let endpoint = Endpoint.get("products", from: shop)
        #expect(endpoint.headers == ["Accept": "application/json", "User-Agent": "Shop/2.1"])
    }

    @Test func endpointHeadersOverrideTheServicesDefaults() {
        let endpoint = Endpoint.get("report", from: shop).headers {
            Header.accept("text/csv")
            Header("X-Extra", "1")
        }
        #expect(endpoint.headers == ["Accept": "text/csv", "User-Agent": "Shop/2.1", "X-Extra": "1"])
    }

    @Test func aServiceAtAServerWithAPathPrefixStartsEveryPath() {
        let local = Service(destination: .server(scheme: "http", host: "127.0.0.1", port: 8080), pathComponents: ["api"])
        let store = local.appending(pathComponents: "stores", 7)
        #expect(Endpoint.get("stock", "a b", from: store).url?.absoluteString == "http://127.0.0.1:8080/api/stores/7/stock/a%20b")
    }

    @Test func slashesSpacesUnicodeAndDotsArriveAtTheServerAsTheValuesWritten() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let service = Service(baseURL: server.url(for: "/v1"))
        let values = ["a/b", "with space", "café ☕︎", "日本語", "100% ?#&=+", "..", "."]
        let networking = service.networking(using: makeTestSession().transport)

        _ = try await networking(Endpoint(.get, pathComponents: ["items"] + values, from: service)).value(within: .seconds(30))

        let request = try #require(await server.takeRequest(timeout: .seconds(30)))
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        #expect(segments.map { $0.removingPercentEncoding } == ["v1", "items"] + values)
        #expect(request.method == "GET")
    }
}
