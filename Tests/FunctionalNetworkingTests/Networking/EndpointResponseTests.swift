import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Endpoint.Response")
struct EndpointResponseTests {
    @Test func responseNetworkingGivesTheBodyWithStatusHeadersAndFinalURL() async throws {
        let server = try LoopbackServer { request in
            if request.path == "/old" { return .redirect(to: "/products/7", status: 301) }
            return .json(#"{"id":7,"name":"iPad Pro"}"#, headers: [.init("ETag", "\"v7\""), .init("Link", "</products/8>; rel=\"next\"")])
        }
        defer { server.stop() }
        let send = responseNetworking(from: makeTestSession().transport)
        let response = try await send(Endpoint(baseURL: server.baseURL, path: "/old")).value(within: .seconds(30))
        #expect(response.status == 200)
        #expect(response.headers["etag"] == "\"v7\"")
        #expect(response.headers["Link"] == "</products/8>; rel=\"next\"")
        #expect(response.url == server.url(for: "/products/7"))
        #expect(response.value == Data(#"{"id":7,"name":"iPad Pro"}"#.utf8))
    }

    @Test func aResponseDecodesAndChainsLikeABody() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":7,"name":"iPad Pro"}"#, headers: [.init("ETag", "\"v7\"")]) }
        defer { server.stop() }
        let send = responseNetworking(from: makeTestSession().transport)
        let endpoint = { @Sendable (id: Int) in Endpoint(baseURL: server.baseURL, path: "/products/\(id)") }
        let load: (Int) -> Future<Endpoint.Response<Product>> = chain(chain(endpoint, to: send), to: Future.decoded)
        let product = try await load(7).value(within: .seconds(30))
        #expect(product.value == Product(id: 7, name: "iPad Pro"))
        #expect(product.headers["ETag"] == "\"v7\"")
        let loadSeven = combine(7, with: load)
        #expect(try await loadSeven().value(within: .seconds(30)).value.name == "iPad Pro")
    }

    @Test func aFailedStatusIsTheSameHTTPStatusErrorAsNetworkingGives() async throws {
        let server = try LoopbackServer { _ in .json(#"{"message":"gone"}"#, status: 410) }
        defer { server.stop() }
        let transport = makeTestSession().transport
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/a")
        let fromResponse = await responseNetworking(from: transport)(endpoint).result(within: .seconds(30))
        let fromBody = await networking(from: transport)(endpoint).result(within: .seconds(30))
        #expect((fromResponse.failure as? HTTPStatusError)?.status == 410)
        #expect((fromBody.failure as? HTTPStatusError)?.status == 410)
    }

    @Test func mapKeepsTheStatusHeadersAndURL() {
        let url = URL(string: "https://shop.example/a")
        let response = Endpoint.Response(value: 2, status: 201, headers: ["Location": "/a/2"], url: url)
        let mapped = response.map { String($0) }
        #expect(mapped == Endpoint.Response(value: "2", status: 201, headers: ["Location": "/a/2"], url: url))
    }

    @Test func aNonJSONBodyFailsWithItsContentTypeAndAShortPreview() async throws {
        let html = "<html><body><h1>502 Bad Gateway</h1><p>The upstream server did not answer in time; try again later.</p></body></html>"
        let server = try LoopbackServer { _ in .init(headers: [.init("Content-Type", "text/html")], body: Data(html.utf8)) }
        defer { server.stop() }
        let send = responseNetworking(from: makeTestSession().transport)
        let future: Future<Endpoint.Response<Product>> = send(Endpoint(baseURL: server.baseURL, path: "/p")).decoded()
        let failure = try #require(await future.result(within: .seconds(30)).failure as? DecodingFailure)
        #expect(failure.contentType == "text/html")
        #expect(failure.url == server.url(for: "/p").absoluteString)
        #expect(
            failure.description.hasPrefix(
                "Could not decode Product from \(server.url(for: "/p")): the data is not valid JSON (the body is not JSON at all)"
            )
        )
        #expect(failure.description.contains("Content-Type: text/html; body: <html><body><h1>502 Bad Gateway</h1>"))
        #expect(failure.description.hasSuffix("…"))  // a short preview: 80 characters at most
    }

    @Test func theNonJSONPreviewHidesSecretNamedFormFields() async throws {
        let server = try LoopbackServer { _ in
            .init(headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: Data("error=denied&password=hunter2".utf8))
        }
        defer { server.stop() }
        let send = responseNetworking(from: makeTestSession().transport)
        let future: Future<Endpoint.Response<Product>> = send(Endpoint(baseURL: server.baseURL, path: "/p")).decoded()
        let failure = try #require(await future.result(within: .seconds(30)).failure as? DecodingFailure)
        #expect(failure.description.contains("Content-Type: application/x-www-form-urlencoded; body: error=denied"))
        #expect(!failure.description.contains("hunter2"))
    }
}
