import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Composer+Retry")
struct RetryTests {
    let fixedNow = Date(timeIntervalSince1970: 1_800_000_000)

    func policy(_ maxAttempts: Int = 3, backoff: Backoff = .constant(.seconds(1))) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, backoff: backoff, now: { [fixedNow] in fixedNow })
    }

    @Test func a503WithRetryAfterSecondsIsRetriedAfterThatWait() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("busy", status: 503, headers: [.init("Retry-After", "5")]))
        server.enqueue(.text("ok"))
        let clock = TestClock()
        let transport = makeTestNetworkSession().transport(with: .retry(policy(), clock: clock))
        let call = Task { try await transport(URLRequest(url: server.url(for: "/products"))) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let (data, response) = try await call.value
        #expect(String(decoding: data, as: UTF8.self) == "ok")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(server.requestCount == 2)
    }

    @Test func a429WithRetryAfterAsAnHTTPDateWaitsUntilThatDate() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let date = "Fri, 15 Jan 2027 08:00:07 GMT"
        let policy = RetryPolicy(backoff: .constant(.seconds(1)), now: { HTTPDateFixture.eightOClock })
        server.enqueue(.text("slow down", status: 429, headers: [.init("Retry-After", date)]))
        server.enqueue(.text("ok"))
        let clock = TestClock()
        let transport = makeTestNetworkSession().transport(with: .retry(policy, clock: clock), .validatingStatus())
        let call = Task { try await transport(URLRequest(url: server.url(for: "/"))) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(6))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await call.value.0 == Data("ok".utf8))
    }

    @Test func retryAfterIsCappedByTheMaximum() {
        var policy = policy()
        policy.maximumRetryAfter = .seconds(30)
        #expect(policy.retryAfter(in: ["Retry-After": "3600"]) == .seconds(30))
        #expect(policy.retryAfter(in: ["Retry-After": "2"]) == .seconds(2))
        #expect(policy.retryAfter(in: ["Retry-After": "soon"]) == nil)
        #expect(policy.retryAfter(in: [:]) == nil)
    }

    @Test func aPostIsNotRetried() async throws {
        let server = try LoopbackServer { _ in .text("busy", status: 503) }
        defer { server.stop() }
        let transport = makeTestNetworkSession().transport(with: .retry(policy(), clock: TestClock()), .validatingStatus())
        var request = URLRequest(url: server.url(for: "/orders"))
        request.httpMethod = "POST"
        let error = await #expect(throws: HTTPStatusError.self) { try await transport(request) }
        #expect(error?.status == 503)
        #expect(server.requestCount == 1)
    }

    @Test func aMaximumOfZeroOrLessAttemptsMeansOneAttemptNotACrash() async throws {
        let server = try LoopbackServer { _ in .text("busy", status: 503) }
        defer { server.stop() }
        for maxAttempts in [0, -5] {
            let transport = makeTestNetworkSession().transport(with: .retry(policy(maxAttempts), clock: TestClock()), .validatingStatus())
            await #expect(throws: HTTPStatusError.self) { try await transport(URLRequest(url: server.url(for: "/busy"))) }
        }
        #expect(server.requestCount == 2)
    }

    @Test func exhaustedRetriesEndInTheLastAttemptsStatusErrorAsWithoutRetry() async throws {
        let server = try LoopbackServer { request in .text("busy \(request.sequenceNumber)", status: 503) }
        defer { server.stop() }
        let clock = TestClock()
        let transport = makeTestNetworkSession().transport(with: .retry(policy(3, backoff: .immediate), clock: clock), .validatingStatus())
        let error = await #expect(throws: HTTPStatusError.self) {
            try await transport(URLRequest(url: server.url(for: "/")))
        }
        #expect(error?.status == 503)
        #expect(error?.body == Data("busy 2".utf8))
        #expect(server.requestCount == 3)
    }

    @Test func theFinalStatusErrorOfARetriedCallSaysHowManyAttemptsWereMadeAndKeepsItsType() async throws {
        let transport = NetworkSession(sending: stubTransport(data: Data(), status: 503)).transport(
            with: .retry(policy(3, backoff: .immediate), clock: TestClock()), .validatingStatus())
        let error = try #require(
            await #expect(throws: HTTPStatusError.self) { try await transport(URLRequest(url: URL(string: "https://shop.test/items")!)) }
        )
        #expect(error.attempts == 3)
        #expect(error.description == "The server answered 503 (Service Unavailable) for https://shop.test/items after 3 attempts.")
    }

    @Test func theFinalNetworkFailureOfARetriedCallSaysHowManyAttemptsWereMade() async throws {
        let url = URL(string: "https://shop.test/items")!
        let refused = stubTransport { _ in throw TransportError.networkFailure(URLError(.cannotConnectToHost), url: url.absoluteString) }
        let send = networking(
            from: NetworkSession(sending: refused).transport(with: .retry(policy(3, backoff: .immediate), clock: TestClock())))
        let error = try #require(await send(Endpoint(baseURL: url)).result(within: .seconds(30)).failure as? TransportError)
        #expect(error.attempts == 3)
        #expect(error.urlError?.code == .cannotConnectToHost)
        #expect(error.description.hasSuffix(" Gave up after 3 attempts."))
    }

    @Test func aCallThatIsNotRetriedSaysNothingOfAttempts() async throws {
        let transport = NetworkSession(sending: stubTransport(data: Data(), status: 404)).transport(
            with: .retry(policy(3, backoff: .immediate), clock: TestClock()), .validatingStatus())
        let error = await #expect(throws: HTTPStatusError.self) {
            try await transport(URLRequest(url: URL(string: "https://shop.test/x")!))
        }
        #expect(error?.attempts == 1)
        #expect(error?.description == "The server answered 404 (Not Found) for https://shop.test/x.")
    }

    @Test func aRetryableStatusOnTheLastAttemptIsReturnedAsItCame() async throws {
        let transport = NetworkSession(sending: stubTransport(data: Data("busy".utf8), status: 503)).transport(
            with: .retry(policy(2, backoff: .immediate), clock: TestClock()))
        let (_, response) = try await transport(URLRequest(url: URL(string: "https://shop.test/")!))
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
    }

    @Test func aTransientTransportErrorIsRetriedAndABadURLIsNot() async throws {
        let attempts = Counter()
        let flaky = stubTransport { request in
            if attempts.increment() < 3 { throw URLError(.networkConnectionLost) }
            return (Data("ok".utf8), stubResponse(for: request))
        }
        let request = URLRequest(url: URL(string: "https://shop.test/")!)
        #expect(
            try await NetworkSession(sending: flaky).transport(with: .retry(policy(backoff: .immediate), clock: TestClock()))(request).0
                == Data("ok".utf8))
        #expect(attempts.value == 3)

        let badURLs = Counter()
        let bad = stubTransport { _ in
            badURLs.increment()
            throw URLError(.badURL)
        }
        await #expect(throws: URLError.self) {
            try await NetworkSession(sending: bad).transport(with: .retry(policy(backoff: .immediate), clock: TestClock()))(request)
        }
        #expect(badURLs.value == 1)
    }

    @Test func neitherCancellationNorDecodingFailuresAreRetried() async {
        for error in [
            CancellationError() as any Error, DecodingFailure(typeName: "P", codingPath: "", reason: "bad"), Endpoint.Error.invalidURL,
        ] {
            #expect(RetryPolicy.default.isRetryable(error) == false)
        }
        #expect(RetryPolicy.default.isRetryable(URLError(.cancelled)) == false)
    }

    @Test func cancellingDuringTheBackoffStopsAtOnce() async throws {
        let attempts = Counter()
        let failing = stubTransport { _ in
            attempts.increment()
            throw URLError(.timedOut)
        }
        let clock = TestClock()
        let transport = NetworkSession(sending: failing).transport(with: .retry(policy(5, backoff: .constant(.seconds(30))), clock: clock))
        let call = Task { try await transport(URLRequest(url: URL(string: "https://shop.test/")!)) }
        try await clock.waitForSleepers(count: 1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(attempts.value == 1)
    }

    @Test func theBackoffIsUsedWhenTheServerSaysNothing() async throws {
        let attempts = Counter()
        let flaky = stubTransport { request in
            attempts.increment() < 2 ? (Data(), stubResponse(for: request, status: 502)) : (Data("ok".utf8), stubResponse(for: request))
        }
        let clock = TestClock()
        let transport = NetworkSession(sending: flaky).transport(with: .retry(policy(backoff: .constant(.seconds(3))), clock: clock))
        let call = Task { try await transport(URLRequest(url: URL(string: "https://shop.test/")!)) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        #expect(attempts.value == 1)
        clock.advance(by: .seconds(1))
        #expect(try await call.value.0 == Data("ok".utf8))
    }

    @Test func yourOwnErrorsAreRetriedWhenThePolicySaysSo() async throws {
        struct Flaky: Error {}
        let attempts = Counter()
        let transport = stubTransport { request in
            if attempts.increment() < 2 { throw Flaky() }
            return (Data("ok".utf8), stubResponse(for: request))
        }
        let policy = RetryPolicy(backoff: .immediate, retriesError: { $0 is Flaky })
        #expect(
            try await NetworkSession(sending: transport).transport(with: .retry(policy, clock: TestClock()))(
                URLRequest(url: URL(string: "https://shop.test/")!)
            ).0
                == Data("ok".utf8))
        #expect(attempts.value == 2)
        #expect(policy.isRetryable(CancellationError()) == false)
    }

    @Test func theTimeoutComposersErrorIsRetriedLikeATimedOutRequest() {
        #expect(RetryPolicy.default.isRetryable(TimeoutError(limit: .seconds(1))))
    }

    @Test func aBackoffTooLongForTheSystemsTimersWaitsUntilCancelled() async throws {
        let attempts = Counter()
        let transport = NetworkSession(
            sending: stubTransport { _ in
                attempts.increment()
                throw URLError(.timedOut)
            }
        ).transport(with: .retry(RetryPolicy(backoff: .constant(.seconds(Int64.max)))))
        let call = Future { try await transport(URLRequest(url: URL(string: "https://shop.test/products/7")!)) }
        try await Task.sleep(for: .milliseconds(50))  // the wait has begun by then
        call.cancel()
        #expect(await call.result(within: .seconds(30)).failure is CancellationError)
        #expect(attempts.value == 1)
    }
}

enum HTTPDateFixture {
    /// Fri, 15 Jan 2027 08:00:00 GMT.
    static let eightOClock = Date(timeIntervalSince1970: 1_800_000_000)
}
