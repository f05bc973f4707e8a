import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session the user makes once and keeps: its connections are reused, and every stack it
/// gives is in the one order, whatever order the composers are listed in.
@Suite("NetworkSession")
struct NetworkSessionTests {
    @Test func twentySequentialRequestsOnOneSessionOpenAtMostTwoConnections() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let session = NetworkSession(configuration: .ephemeral)
        for _ in 0..<20 {
            let send = networking(from: session.transport(with: .validatingStatus()))
            _ = try await send(Endpoint(baseURL: server.baseURL, path: "/")).value(within: .seconds(30))
        }
        #expect(server.requestCount == 20)
        #expect(server.connectionCount <= 2, "20 requests opened \(server.connectionCount) connections")
    }

    @Test func aSessionOverATransportOfOnesOwnRunsTheSameStacks() async throws {
        let seen = Collected<String>()
        let session = NetworkSession(sending: { request in
            seen.append(request.value(forHTTPHeaderField: "X-Api-Key") ?? "none")
            return (Data("ok".utf8), stubResponse(for: request, status: 503))
        })
        let transport = session.transport(
            with: .validatingStatus(), .retry(RetryPolicy(maxAttempts: 2, backoff: .immediate), clock: TestClock()),
            .modifyingRequest { request in
                var request = request
                request.setValue("k3y", forHTTPHeaderField: "X-Api-Key")
                return request
            })
        await #expect(throws: HTTPStatusError.self) { try await transport(URLRequest(url: URL(string: "https://shop.test/")!)) }
        #expect(seen.values == ["k3y", "k3y"])
    }

    @Test func theConfigurationIsACopyOfTheOneGiven() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["User-Agent": "Shop/1.0"]
        let session = NetworkSession(configuration: configuration)
        configuration.httpAdditionalHeaders = ["User-Agent": "changed"]
        #expect(session.configuration.httpAdditionalHeaders?["User-Agent"] as? String == "Shop/1.0")
    }

    @Test func aModifierThatSetsACredentialListedBelowTheCacheAndDeduplicationStillTellsUsersApart() async throws {
        let upstream = Collected<String>()
        let session = NetworkSession(sending: { request in
            let user = request.value(forHTTPHeaderField: "Authorization") ?? "nobody"
            upstream.append(user)
            try await Task.sleep(for: .milliseconds(100))  // both users' calls are in flight at once
            return (Data("/me of \(user)".utf8), stubResponse(for: request, headers: ["Cache-Control": "max-age=60"]))
        })
        let cache = ResponseCache()
        let deduplicator = RequestDeduplicator()
        // The order the attack used: the cache and de-duplication listed above the
        // modifier that adds the credential. The stack puts the modifier above both.
        func stack(for token: String) -> Transport {
            session.transport(
                with: .cached(in: cache), .deduplicated(by: deduplicator),
                .modifyingRequest { request in
                    var request = request
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    return request
                })
        }
        let ada = stack(for: "ada")
        let bob = stack(for: "bob")
        let me = URLRequest(url: URL(string: "https://shop.test/me")!)

        async let adaInFlight = ada(me)
        async let bobInFlight = bob(me)
        let (adaAnswer, bobAnswer) = try await (adaInFlight, bobInFlight)
        #expect(String(decoding: adaAnswer.0, as: UTF8.self) == "/me of Bearer ada")
        #expect(String(decoding: bobAnswer.0, as: UTF8.self) == "/me of Bearer bob")

        // From the cache now: each user gets their own.
        #expect(String(decoding: try await bob(me).0, as: UTF8.self) == "/me of Bearer bob")
        #expect(String(decoding: try await ada(me).0, as: UTF8.self) == "/me of Bearer ada")
        #expect(upstream.values.sorted() == ["Bearer ada", "Bearer bob"])
    }

    @Test func aTimeLimitListedBelowAuthenticationStillBoundsAStuckRefresh() async throws {
        let clock = TestClock()
        let refreshStarted = Counter()
        let session = NetworkSession(sending: { request in
            (Data(), stubResponse(for: request, status: 401))
        })
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: URL(string: "https://shop.test")!)!],
            refresh: { _ in
                refreshStarted.increment()
                try await Task.sleep(for: .seconds(3_600))  // a token server that never answers
                return .bearer("never")
            }
        )
        // Listed as the attack listed it: authentication above the time limit.
        let transport = session.transport(with: .authenticated(by: auth), .timeout(after: .seconds(2), clock: clock))
        let call = Task { try await transport(URLRequest(url: URL(string: "https://shop.test/me")!)) }
        try await clock.waitForSleepers(count: 1, timeout: .seconds(30))
        clock.advance(by: .seconds(2))
        let outcome = await call.result
        #expect(throws: TimeoutError.self) { try outcome.get() }
        #expect(refreshStarted.value <= 1)
    }
}
