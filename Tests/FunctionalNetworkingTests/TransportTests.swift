import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Transport and URLSession.request")
struct TransportTests {
    @Test func requestGivesTheBodyOfA2xxResponse() async throws {
        let server = try makeShopServer()
        defer { server.stop() }
        let session = makeTestSession()
        let data = try await session.request(Endpoint(baseURL: server.baseURL, path: "/products/7")).value(within: .seconds(30))
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":7,"name":"iPad Pro"}"#)
    }

    @Test(arguments: [404, 500])
    func requestRejectsANon2xxStatusWithItsStatusHeadersAndBody(status: Int) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.json(#"{"message":"nope"}"#, status: status, headers: [.init("X-Trace", "abc")]))
        let result = await makeTestSession().request(Endpoint(baseURL: server.baseURL, path: "/x")).result()
        let error = try #require(result.failure as? HTTPStatusError)
        #expect(error.status == status)
        #expect(error.headers["x-trace"] == "abc")
        #expect(String(decoding: error.body, as: UTF8.self) == #"{"message":"nope"}"#)
        #expect(error.description.contains("answered \(status)"))
    }

    @Test func malformedJSONFromTheServerFailsWithADecodingFailure() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.json(#"{"id":7,"name":"#))
        let future: Future<Product> = makeTestSession().request(Endpoint(baseURL: server.baseURL, path: "/products/7")).decoded()
        let failure = try #require(await future.result().failure as? DecodingFailure)
        #expect(failure.typeName == "Product")
        #expect(failure.description.contains("not valid JSON"))
    }

    @Test func requestRejectsAnEndpointWithoutAURLWithInvalidURL() async {
        let endpoint = Endpoint(destination: .server(scheme: "https", host: "", port: nil), path: "/x")
        let result = await URLSession.shared.request(endpoint).result()
        #expect(result.failure as? Endpoint.Error == .invalidURL)
    }

    @Test func connectionRefusedIsANetworkFailureWithItsURLError() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let endpoint = Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: refusing.port), path: "/")
        let result = await makeTestSession().request(endpoint).result()
        let error = try #require((result.failure as? TransportError)?.urlError)
        #expect(error.code == .cannotConnectToHost)
    }

    @Test func aShortTimeoutMeetsAStallWithTimedOut() async throws {
        let server = try LoopbackServer { _ in .fault(.stall) }
        defer { server.stop() }
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/slow", timeout: 1)
        let result = await makeTestSession().request(endpoint).result()
        #expect((result.failure as? TransportError)?.urlError?.code == .timedOut)
    }

    @Test func cancellingMidFlightGivesCancellationErrorAfterTheServerSawTheRequest() async throws {
        let server = try LoopbackServer { _ in .fault(.stall) }
        defer { server.stop() }
        let future = makeTestSession().request(Endpoint(baseURL: server.baseURL, path: "/slow"))
        let seen = await server.takeRequest(timeout: .seconds(30))
        #expect(seen?.path == "/slow")
        future.cancel()
        let result = await future.result()
        #expect(result.failure is CancellationError)
    }

    @Test func urlSessionsOwnCancelledErrorIsReportedAsCancellationError() async {
        let transport = stubTransport { _ in throw URLError(.cancelled) }
        let result = await networking(from: transport)(Endpoint(baseURL: URL(string: "https://shop.test")!, path: "/")).result()
        #expect(result.failure is CancellationError)
    }

    @Test func twoHundredConcurrentRequestsAreAllAnswered() async throws {
        let server = try makeShopServer()
        defer { server.stop() }
        let session = makeTestSession()
        let futures = (0..<200).map { index in
            session.request(Endpoint(baseURL: server.baseURL, path: "/products/\(index % 9 + 1)"))
        }
        let bodies = try await Future.all(futures).value(within: .seconds(60))
        #expect(bodies.count == 200)
        #expect(server.requestCount == 200)
    }

    @Test func networkingFromATransportChecksTheStatus() async {
        let transport = stubTransport(data: Data("gone".utf8), status: 410)
        let result = await networking(from: transport)(Endpoint(baseURL: URL(string: "https://shop.test")!, path: "/")).result()
        #expect((result.failure as? HTTPStatusError)?.status == 410)
    }

    @Test func transportIsTheSessionsDataForRequest() async throws {
        let server = try makeShopServer()
        defer { server.stop() }
        let transport = makeTestSession().transport
        let (data, response) = try await transport(URLRequest(url: server.url(for: "/products/1")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(!data.isEmpty)
    }
}

@Suite("Redirects across origins")
struct RedirectGuardTests {
    @Test func credentialsDoNotFollowARedirectToAnotherOrigin() async throws {
        let other = try LoopbackServer { request in
            .text(
                "\(request.header("Authorization") ?? "-") \(request.header("Cookie") ?? "-") \(request.header("Proxy-Authorization") ?? "-") \(request.header("Accept") ?? "-")"
            )
        }
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing")) }
        defer { first.stop() }
        var request = URLRequest(url: first.url(for: "/go"))
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("session=abc", forHTTPHeaderField: "Cookie")
        request.setValue("Basic eDp5", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        let (data, _) = try await makeTestSession().transport(request)
        #expect(String(decoding: data, as: UTF8.self) == "- - - text/plain")
    }

    @Test func credentialsFollowARedirectWithinTheSameOrigin() async throws {
        let server = try LoopbackServer { request in
            request.path == "/go" ? .redirect(to: "/landing") : .text(request.header("Authorization") ?? "-")
        }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/go"))
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        let (data, _) = try await makeTestSession().transport(request)
        #expect(String(decoding: data, as: UTF8.self) == "Bearer s3cr3t")
    }
}
