import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/RetryAndResilience.md, as the article shows them,
// against LoopbackServers on 127.0.0.1 and stub transports.

@Suite("Samples: Retry and resilience")
struct RetryAndResilienceSamplesTests {
    @Test func theDefaultPolicyRetriesA503() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("busy", status: 503))
        server.enqueue(.text("ok"))
        let url = server.url(for: "/products")

        let transport = NetworkSession.shared.transport(with: .retry(), .validatingStatus())

        let data = try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        #expect(data == Data("ok".utf8))
        #expect(server.requestCount == 2)
    }

    @Test func theDefaultPolicyIsTheOneTheArticleDescribes() {
        let policy = RetryPolicy.default
        #expect(policy.maxAttempts == 3)
        #expect(policy.methods == [.get, .head, .options, .put, .delete, .trace])
        #expect(policy.statuses == [408, 429, 500, 502, 503, 504])
        #expect(
            policy.errorCodes == [
                .timedOut, .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed,
            ])
        #expect(policy.maximumRetryAfter == .seconds(60))
        for attempt in 1...6 {
            let wait = policy.backoff.delay(afterAttempt: attempt)
            #expect(wait >= .zero && wait <= min(.milliseconds(200) * (1 << (attempt - 1)), .seconds(10)))
        }
    }

    @Test func aChangedPolicyNoLongerRetriesA500() async throws {
        let server = try LoopbackServer { _ in .text("bug", status: 500) }
        defer { server.stop() }
        let url = server.url(for: "/products")

        var policy = RetryPolicy.default
        policy.maxAttempts = 5
        policy.backoff = .exponential(initial: .milliseconds(500), maximum: .seconds(20))
        policy.statuses.remove(500)  // this server's 500s are bugs, not hiccups
        let transport = NetworkSession.shared.transport(with: .retry(policy), .validatingStatus())

        let error = await #expect(throws: HTTPStatusError.self) {
            try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        }
        #expect(error?.status == 500)
        #expect(server.requestCount == 1)
        #expect(policy.maxAttempts == 5)
    }

    @Test func exponentialBackoffDoublesAndJitterDrawsBelowIt() {
        let backoff = Backoff.exponential(initial: .milliseconds(200), maximum: .seconds(10))
        let first = backoff.delay(afterAttempt: 1)  // between 0 and 200 ms
        let third = backoff.delay(afterAttempt: 3)  // between 0 and 800 ms
        let exact = Backoff.exponential(jitter: .none).delay(afterAttempt: 3)  // exactly 400 ms

        #expect(first >= .zero && first <= .milliseconds(200))
        #expect(third >= .zero && third <= .milliseconds(800))
        #expect(exact == .milliseconds(400))
        #expect(Backoff.constant(.seconds(2)).delay(afterAttempt: 5) == .seconds(2))
        #expect(Backoff.immediate.delay(afterAttempt: 1) == .zero)
    }

    @Test func failingEveryAttemptEndsInTheLastAttemptsStatusError() async throws {
        let server = try LoopbackServer { _ in .text("busy", status: 503, headers: [.init("Retry-After", "0")]) }
        defer { server.stop() }
        let transport = NetworkSession.shared.transport(with: .retry(RetryPolicy(backoff: .immediate)), .validatingStatus())
        let request = URLRequest(url: server.url(for: "/products"))
        let seen = Collected<String>()
        @Sendable func showUnavailable(retryAfter: String?) {
            seen.append(retryAfter ?? "none")
        }

        try await withDocSampleTimeLimit {
            do {
                _ = try await transport(request)
            } catch let error as HTTPStatusError where error.status == 503 {
                showUnavailable(retryAfter: error.headers["Retry-After"])
            }
        }

        #expect(seen.values == ["0"])
        #expect(server.requestCount == 3)
    }

    @Test func withoutValidationTheLastRetryableResponseComesBackAsItArrived() async throws {
        let session = NetworkSession(sending: stubTransport(data: Data("busy".utf8), status: 503))
        let transport = session.transport(with: .retry(RetryPolicy(backoff: .immediate)))
        let (_, response) = try await transport(URLRequest(url: URL(string: "https://shop.example/products")!))
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
    }

    @Test func a503WithRetryAfterIsRetriedAfterTheWaitItAsksFor() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("busy", status: 503, headers: [.init("Retry-After", "5")]))
        server.enqueue(.text("ok"))
        let clock = TestClock()
        let transport = NetworkSession.shared.transport(with: .retry(.default, clock: clock), .validatingStatus())

        let call = Future { try await transport(URLRequest(url: server.url(for: "/products"))) }
        try await clock.waitForSleepers(count: 1, timeout: .seconds(30))
        clock.advance(by: .seconds(5))

        let (data, _) = try await call.timeout(after: .seconds(30)).value
        #expect(data == Data("ok".utf8))
        #expect(server.requestCount == 2)
    }

    @Test func theThreeTimeLimitsAreSetWhereTheArticleSays() async throws {
        let loadProduct: @Sendable (Product.ID) -> Future<Product> = { id in Future(value: Product(id: id, name: "iPad Pro")) }

        let endpoint = Endpoint.product(withID: 7).with(timeout: 10)  // URLSession gives up after 10 s without data
        let transport = NetworkSession.shared.transport(with: .retry(), .timeout(after: .seconds(10)), .validatingStatus())
        let product: Future<Product> = loadProduct(7).timeout(after: .seconds(45))

        #expect(try endpoint.urlRequest().timeoutInterval == 10)
        #expect(try await product.value(within: .seconds(30)).name == "iPad Pro")
        _ = transport
    }

    @Test func anAttemptThatRunsOutOfTheEndpointsTimeIsRetried() async throws {
        // The first request stalls; every later one is answered at once, however many attempts a
        // loaded machine needs (a finite script could run out and answer 404).
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        server.enqueue(.text("never").withFault(.stall))
        // Ten attempts rather than the default three: a machine stalled for longer than an
        // attempt's time at the wrong moment costs an attempt, not the test.
        let send = networking(
            from: NetworkSession.shared.transport(with: .retry(RetryPolicy(maxAttempts: 10, backoff: .immediate)), .validatingStatus()))
        // Whole seconds: swift-corelibs-foundation fails a timeoutInterval below one second at once.
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/slow").with(timeout: 2)
        #expect(try await send(endpoint).value(within: .seconds(60)) == Data("ok".utf8))
        // The stalled attempt, then the one answered (more only if the machine stalled).
        #expect(server.requestCount >= 2)
    }

    @Test func aTimeoutBoundsEachAttemptAndIsRetried() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        server.enqueue(.text("never").withFault(.stall))
        let url = server.url(for: "/slow")
        let clock = TestClock()
        let transport = NetworkSession.shared.transport(with: .retry(), .timeout(after: .seconds(2), clock: clock), .validatingStatus())
        let call = Future { try await transport(URLRequest(url: url)) }
        // The clock moves only once the server holds the first attempt, so the second one cannot
        // time out however slow the machine is.
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        try await clock.waitForSleepers(count: 1, timeout: .seconds(30))
        clock.advance(by: .seconds(2))
        let (data, _) = try await call.value(within: .seconds(30))
        #expect(data == Data("ok".utf8))
        #expect(server.requestCount == 2)
    }

    @Test func theWholeStackRefreshesOnceAndRetriesA503() async throws {
        let answered = Collected<String>()
        let server = try LoopbackServer { request in
            guard request.header("Authorization") == "Bearer fresh" else { return .text("who are you?", status: 401) }
            answered.append(request.path)
            return answered.values.count == 1 ? .text("busy", status: 503) : .text("ok")
        }
        defer { server.stop() }
        let refreshes = Collected<String>()
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.append("refresh")
                return .bearer("fresh")
            }
        )
        let url = server.url(for: "/account")

        let transport = NetworkSession.shared.transport(
            with:
                .authenticated(by: auth),  // attaches the credential; on 401 refreshes and resends
            .retry(),  // resends 408, 429, 500, 502-504 and transient errors
            .timeout(after: .seconds(30)),  // each attempt, and the wait for a refresh
            .validatingStatus()  // turns a failed status into an error for the caller
        )
        // Runs as: validatingStatus → retry → timeout → authenticated → the session.

        let data = try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        #expect(data == Data("ok".utf8))
        #expect(refreshes.values.count == 1)
        #expect(server.requestCount == 3)
    }
}
