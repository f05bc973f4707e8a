import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every fault of the matrix through URLSession → composers → LoopbackServer: the error the
/// caller gets (type and words), the attempts made, and that the future completed once.
@Suite("Fault matrix")
struct FaultMatrixTests {
    struct Outcome {
        let result: Result<Data, any Error>
        let attempts: Int
        let completions: Int
    }

    /// The stack under test: retry (3 attempts, 10 ms backoff, Retry-After capped at 50 ms), a
    /// per-attempt timeout (generous, so a loaded machine under a sanitizer does not turn
    /// slowness into retries; the stall's runs on a test clock), status validation.
    static func run(
        _ server: LoopbackServer, path: String = "/fault", attemptTimeout: Duration = .seconds(30),
        clock: some Clock<Duration> = ContinuousClock(), baseURL: URL? = nil
    ) async -> Outcome {
        let policy = RetryPolicy(maxAttempts: 3, backoff: .constant(.milliseconds(10)), maximumRetryAfter: .milliseconds(50))
        let transport = makeTestNetworkSession(timeout: 60).transport(
            with: .retry(policy), .timeout(after: attemptTimeout, clock: clock), .validatingStatus())
        let before = server.requestCount
        let completions = Counter()
        let future = networking(from: transport)(Endpoint(baseURL: baseURL ?? server.baseURL, path: path))
        future.observe { _ in completions.increment() }
        let result = await future.result(within: .seconds(60))
        return Outcome(result: result, attempts: server.requestCount - before, completions: completions.value)
    }

    /// libcurl reports a connection closed at start as "connection lost" (-1005, transient:
    /// retried) or as "empty reply" (-1011, a bad response: not retried), depending on timing.
    @Test func connectionClosedAtStartFailsWithANetworkFailureRetriedOnlyWhenTransient() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        for _ in 0..<3 { server.enqueue(.fault(.closeAtStart)) }
        let outcome = await Self.run(server)
        switch (outcome.result.failure as? TransportError)?.urlError {
        case let error? where error.code == .networkConnectionLost:
            break  // transient: retried, and the last attempt's error comes back as it came
        case let error?:
            #expect(error.code == .badServerResponse)  // on the first attempt, or after a retried -1005
        case nil:
            Issue.record("expected a network failure, got \(String(describing: outcome.result))")
        }
        #expect(outcome.completions == 1)
    }

    @Test func connectionClosedAfterTheRequestIsABadServerResponseAndNotRetried() async throws {
        let server = try LoopbackServer { _ in .fault(.closeAfterRequest) }
        defer { server.stop() }
        let outcome = await Self.run(server)
        #expect((outcome.result.failure as? TransportError)?.urlError?.code == .badServerResponse)
        #expect(outcome.attempts == 1)
        #expect(outcome.completions == 1)
    }

    @Test func connectionClosedInTheMiddleOfTheBodyFailsWithANetworkFailure() async throws {
        let server = try LoopbackServer { _ in .text(String(repeating: "x", count: 10_000)).withFault(.closeMidBody) }
        defer { server.stop() }
        let outcome = await Self.run(server)
        #expect((outcome.result.failure as? TransportError)?.urlError != nil)
        #expect(outcome.completions == 1)
    }

    @Test func aStallIsMetByTheTimeoutOnEveryAttempt() async throws {
        let server = try LoopbackServer { _ in .fault(.stall) }
        defer { server.stop() }
        let clock = TestClock()
        async let running = Self.run(server, attemptTimeout: .seconds(2), clock: clock)
        // Each attempt's time runs out only once the server holds it, however slow the machine.
        for _ in 0..<3 {
            _ = await server.takeRequest(timeout: .seconds(30))
            try await clock.waitForSleepers(count: 1, timeout: .seconds(30))
            clock.advance(by: .seconds(2))
        }
        let outcome = await running
        #expect(outcome.result.failure is TimeoutError)
        #expect(outcome.attempts == 3)
        #expect(outcome.completions == 1)
    }

    @Test(arguments: [500, 502, 503])
    func aServerErrorIsRetriedThenReportedWithItsStatus(status: Int) async throws {
        let server = try LoopbackServer { _ in .text("down", status: status) }
        defer { server.stop() }
        let outcome = await Self.run(server)
        let error = try #require(outcome.result.failure as? HTTPStatusError)
        #expect(error.status == status)
        #expect(outcome.attempts == 3)
        #expect(outcome.completions == 1)
    }

    @Test(arguments: [503, 429])
    func aRetryAfterIsHonouredAndTheNextAttemptSucceeds(status: Int) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("later", status: status, headers: [.init("Retry-After", "1")]))
        server.enqueue(.json(#"{"ok":true}"#))
        let outcome = await Self.run(server)
        #expect(try outcome.result.get() == Data(#"{"ok":true}"#.utf8))
        #expect(outcome.attempts == 2)
        #expect(outcome.completions == 1)
    }

    @Test func anEmptyBodyWhereJSONIsExpectedNamesTheType() async throws {
        let server = try LoopbackServer { _ in .status(200) }
        defer { server.stop() }
        let transport = makeTestNetworkSession().transport(with: .validatingStatus())
        let product: Future<Product> = networking(from: transport)(Endpoint(baseURL: server.baseURL, path: "/p")).decoded()
        let failure = try #require(await product.result().failure as? DecodingFailure)
        #expect(
            failure.description
                == "Could not decode Product: the body is empty (decode into NoContent or an optional to accept that), not JSON at the top level."
        )
        #expect(server.requestCount == 1)
    }

    @Test func malformedJSONAndAWrongContentTypeFailDecodingWithoutRetry() async throws {
        let server = try LoopbackServer { request in
            request.path == "/malformed"
                ? .json(#"{"id": 7, "name": "#)
                : .text("<html><body>Maintenance</body></html>", headers: [.init("Content-Type", "text/html")])
        }
        defer { server.stop() }
        let send = networking(from: makeTestNetworkSession().transport(with: .retry(), .validatingStatus()))
        for path in ["/malformed", "/html"] {
            let product: Future<Product> = send(Endpoint(baseURL: server.baseURL, path: path)).decoded()
            let failure = try #require(await product.result().failure as? DecodingFailure)
            #expect(failure.typeName == "Product")
            #expect(failure.description.contains("not valid JSON"))
        }
        #expect(server.requestCount == 2)
    }

    @Test func aTenMegabyteBodyArrivesWhole() async throws {
        let body = DownloadTests.pattern(10_000_000)
        let server = try LoopbackServer { _ in LoopbackServer.Response(body: body) }
        defer { server.stop() }
        let outcome = await Self.run(server)
        #expect(try outcome.result.get() == body)
        #expect(outcome.completions == 1)
    }

    @Test func aBodyDrippedOneByteAMillisecondArrivesWhole() async throws {
        let text = String(repeating: "drip", count: 50)
        let server = try LoopbackServer { _ in .text(text).throttled(bytesPerPeriod: 1, period: .milliseconds(1)) }
        defer { server.stop() }
        let outcome = await Self.run(server)
        #expect(try outcome.result.get() == Data(text.utf8))
        #expect(outcome.attempts == 1)
    }

    @Test func aRefusedConnectionIsRetriedThenReported() async throws {
        let server = try LoopbackServer()
        server.stop()
        // Not the stopped server's port: another test's server may be given it and answer.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let outcome = await Self.run(server, baseURL: refusing.baseURL)
        let error = try #require((outcome.result.failure as? TransportError)?.urlError)
        #expect(error.code == .cannotConnectToHost)
        #expect(outcome.completions == 1)
    }

    @Test func aServerThatStopsInTheMiddleOfARunCompletesEveryFutureOnce() async throws {
        let server = try LoopbackServer { request in
            .text("ok \(request.path)").delayed(by: .seconds(request.sequenceNumber < 10 ? 0 : 30))  // stop() cuts the wait short
        }
        let transport = makeTestNetworkSession(timeout: 10).transport(
            with: .retry(RetryPolicy(maxAttempts: 2, backoff: .immediate)), .validatingStatus())
        let send = networking(from: transport)
        let counters = (0..<40).map { _ in Counter() }
        let futures = (0..<40).map { index in
            let future = send(Endpoint(baseURL: server.baseURL, path: "/item/\(index)"))
            future.observe { _ in counters[index].increment() }
            return future
        }
        _ = await server.takeRequest(timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(100))
        server.stop()
        var succeeded = 0
        var failed = 0
        for future in futures {
            switch await future.result(within: .seconds(60)) {
            case .success: succeeded += 1
            case .failure: failed += 1
            }
        }
        #expect(succeeded + failed == 40)
        #expect(failed > 0)
        #expect(counters.allSatisfy { $0.value == 1 })
    }
}
