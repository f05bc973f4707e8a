import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Stubs")
struct StubsTests {
    let request = URLRequest(url: URL(string: "https://shop.test/products/7")!)

    @Test func stubTransportAnswersWithTheGivenDataStatusAndHeaders() async throws {
        let transport = stubTransport(data: Data("hello".utf8), status: 201, headers: ["X-Id": "7"])
        let (data, response) = try await transport(request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(String(decoding: data, as: UTF8.self) == "hello")
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "X-Id") == "7")
        #expect(http.url == request.url)
    }

    @Test func stubTransportWithAClosureSeesEachRequestAndCanThrow() async throws {
        let transport = stubTransport { request in
            guard request.url?.path == "/products/7" else { throw URLError(.badURL) }
            return (Data("seven".utf8), stubResponse(for: request))
        }
        #expect(try await transport(request).0 == Data("seven".utf8))
        await #expect(throws: URLError.self) {
            _ = try await transport(URLRequest(url: URL(string: "https://shop.test/other")!))
        }
    }

    @Test func stubNetworkingAnswersEveryEndpointAtOnce() {
        let networking = stubNetworking(data: Data("body".utf8))
        let endpoint = Endpoint(baseURL: URL(string: "https://shop.test")!, path: "/anything")
        #expect(networking(endpoint).result.flatMap { try? $0.get() } == Data("body".utf8))
    }

    @Test func stubNetworkingWithAClosureAnswersPerEndpoint() {
        let networking = stubNetworking { endpoint in
            endpoint.path == "/ok" ? .success(Data("ok".utf8)) : .failure(HTTPStatusError(status: 404))
        }
        let base = URL(string: "https://shop.test")!
        #expect(networking(Endpoint(baseURL: base, path: "/ok")).isPending == false)
        let missing = networking(Endpoint(baseURL: base, path: "/missing")).result
        if case .failure(let error as HTTPStatusError) = missing {
            #expect(error.status == 404)
        } else {
            Issue.record("expected a 404, got \(String(describing: missing))")
        }
    }
}
