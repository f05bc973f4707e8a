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

    @Test(arguments: StackShape.allCases)
    func a503WithRetryAfterSecondsIsRetriedAfterThatWait(_ shape: StackShape) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("busy", status: 503, headers: [.init("Retry-After", "5")]))
        server.enqueue(.text("ok"))
        let clock = TestClock()
        let transport = shape.loopbackSession().transport(with: .retry(policy(), clock: clock))
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

    @Test(arguments: StackShape.allCases)
    func a429WithRetryAfterAsAnHTTPDateWaitsUntilThatDate(_ shape: StackShape) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let date = "Fri, 15 Jan 2027 08:00:07 GMT"
        let policy = RetryPolicy(backoff: .constant(.seconds(1)), now: { HTTPDateFixture.eightOClock })
        server.enqueue(.text("slow down", status: 429, headers: [.init("Retry-After", date)]))
        server.enqueue(.text("ok"))
        let clock = TestClock()
        let transport = shape.loopbackSession().transport(with: .retry(policy, clock: clock), .validatingStatus())
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

    @Test(arguments: StackShape.allCases)
    func exhaustedRetriesEndInTheLastAttemptsStatusErrorAsWithoutRetry(_ shape: StackShape) async throws {
        let server = try LoopbackServer { request in .text("busy \(request.sequenceNumber)", status: 503) }
        defer { server.stop() }
        let clock = TestClock()
        let transport = shape.loopbackSession().transport(with: .retry(policy(3, backoff: .immediate), clock: clock), .validatingStatus())
        let error = await #expect(throws: HTTPStatusError.self) {
            try await transport(URLRequest(url: server.url(for: "/")))
        }
        #expect(error?.status == 503)
        #expect(error?.body == Data("busy 2".utf8))
        #expect(server.requestCount == 3)
    }

    @Test(arguments: StackShape.allCases)
    func theFinalStatusErrorOfARetriedCallSaysHowManyAttemptsWereMadeAndKeepsItsType(_ shape: StackShape) async throws {
        let transport = shape.session(sending: stubTransport(data: Data(), status: 503)).transport(
            with: .retry(policy(3, backoff: .immediate), clock: TestClock()), .validatingStatus())
        let error = try #require(
            await #expect(throws: HTTPStatusError.self) { try await transport(URLRequest(url: URL(string: "https://shop.test/items")!)) }
        )
        #expect(error.attempts == 3)
        #expect(error.description == "The server answered 503 (Service Unavailable) for https://shop.test/items after 3 attempts.")
    }

    @Test(arguments: StackShape.allCases)
    func theFinalNetworkFailureOfARetriedCallSaysHowManyAttemptsWereMade(_ shape: StackShape) async throws {
        let url = URL(string: "https://shop.test/items")!
        let refused = stubTransport { _ in throw TransportError.networkFailure(URLError(.cannotConnectToHost), url: url.absoluteString) }
        let send = networking(
            from: shape.session(sending: refused).transport(with: .retry(policy(3, backoff: .immediate), clock: TestClock())))
        let error = try #require(await send(Endpoint(baseURL: url)).result(within: .seconds(30)).failure as? TransportError)
        #expect(error.attempts == 3)
        #expect(error.urlError?.code == .cannotConnectToHost)
        #expect(error.description.hasSuffix(" Gave up after 3 attempts."))
    }

    @Test(arguments: StackShape.allCases)
    func aCallThatIsNotRetriedSaysNothingOfAttempts(_ shape: StackShape) async throws {
        let transport = shape.session(sending: stubTransport(data: Data(), status: 404)).transport(
            with: .retry(policy(3, backoff: .immediate), clock: TestClock()), .validatingStatus())
        let error = await #expect(throws: HTTPStatusError.self) {
            try await transport(URLRequest(url: URL(string: "https://shop.test/x")!))
        }
        #expect(error?.attempts == 1)
        #expect(error?.description == "The server answered 404 (Not Found) for https://shop.test/x.")
    }

    @Test(arguments: StackShape.allCases)
    func aRetryableStatusOnTheLastAttemptIsReturnedAsItCame(_ shape: StackShape) async throws {
        let transport = shape.session(sending: stubTransport(data: Data("busy".utf8), status: 503)).transport(
            with: .retry(policy(2, backoff: .immediate), clock: TestClock()))
        let (_, response) = try await transport(URLRequest(url: URL(string: "https://shop.test/")!))
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
    }

    @Test(arguments: StackShape.allCases)
    func aTransientTransportErrorIsRetriedAndABadURLIsNot(_ shape: StackShape) async throws {
        let attempts = Counter()
        let flaky = stubTransport { request in
            if attempts.increment() < 3 { throw URLError(.networkConnectionLost) }
            return (Data("ok".utf8), stubResponse(for: request))
        }
        let request = URLRequest(url: URL(string: "https://shop.test/")!)
        #expect(
            try await shape.session(sending: flaky).transport(with: .retry(policy(backoff: .immediate), clock: TestClock()))(request).0
                == Data("ok".utf8))
        #expect(attempts.value == 3)

        let badURLs = Counter()
        let bad = stubTransport { _ in
            badURLs.increment()
            throw URLError(.badURL)
        }
        await #expect(throws: URLError.self) {
            try await shape.session(sending: bad).transport(with: .retry(policy(backoff: .immediate), clock: TestClock()))(request)
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

    @Test(arguments: StackShape.allCases)
    func cancellingDuringTheBackoffStopsAtOnce(_ shape: StackShape) async throws {
        let attempts = Counter()
        let failing = stubTransport { _ in
            attempts.increment()
            throw URLError(.timedOut)
        }
        let clock = TestClock()
        let transport = shape.session(sending: failing).transport(with: .retry(policy(5, backoff: .constant(.seconds(30))), clock: clock))
        let call = Task { try await transport(URLRequest(url: URL(string: "https://shop.test/")!)) }
        try await clock.waitForSleepers(count: 1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(attempts.value == 1)
    }

    @Test(arguments: StackShape.allCases)
    func theBackoffIsUsedWhenTheServerSaysNothing(_ shape: StackShape) async throws {
        let attempts = Counter()
        let flaky = stubTransport { request in
            attempts.increment() < 2 ? (Data(), stubResponse(for: request, status: 502)) : (Data("ok".utf8), stubResponse(for: request))
        }
        let clock = TestClock()
        let transport = shape.session(sending: flaky).transport(with: .retry(policy(backoff: .constant(.seconds(3))), clock: clock))
        let call = Task { try await transport(URLRequest(url: URL(string: "https://shop.test/")!)) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        #expect(attempts.value == 1)
        clock.advance(by: .seconds(1))
        #expect(try await call.value.0 == Data("ok".utf8))
    }

    @Test(arguments: StackShape.allCases)
    func yourOwnErrorsAreRetriedWhenThePolicySaysSo(_ shape: StackShape) async throws {
        struct Flaky: Error {}
        let attempts = Counter()
        let transport = stubTransport { request in
            if attempts.increment() < 2 { throw Flaky() }
            return (Data("ok".utf8), stubResponse(for: request))
        }
        let policy = RetryPolicy(backoff: .immediate, retriesError: { $0 is Flaky })
        #expect(
            try await shape.session(sending: transport).transport(with: .retry(policy, clock: TestClock()))(
                URLRequest(url: URL(string: "https://shop.test/")!)
            ).0
                == Data("ok".utf8))
        #expect(attempts.value == 2)
        #expect(policy.isRetryable(CancellationError()) == false)
    }

    @Test func theTimeoutComposersErrorIsRetriedLikeATimedOutRequest() {
        #expect(RetryPolicy.default.isRetryable(TimeoutError(limit: .seconds(1))))
    }

    @Test(arguments: StackShape.allCases)
    func aBackoffTooLongForTheSystemsTimersWaitsUntilCancelled(_ shape: StackShape) async throws {
        let attempts = Counter()
        let transport = shape.session(
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

    // MARK: - The direct form

    @Test func theFirstAttemptGoesOutOnTheCallersThreadWithNoTask() async throws {
        let inTask = Collected<Bool>()
        let base: DirectTransport = { request, _ in
            inTask.append(withUnsafeCurrentTask { $0 != nil })
            return Future(value: (Data("ok".utf8), stubResponse(for: request)))
        }
        let stack = Composer.stack([.retry(policy(), clock: TestClock())], over: { _ in throw CancellationError() }, direct: base)
        let direct = try #require(stack.direct)
        let answered = Promise<Data>()
        DispatchQueue.global().async {
            direct(URLRequest(url: URL(string: "https://shop.test/")!), RequestContext()).observe { answered.complete(with: $0.map(\.0)) }
        }
        #expect(try await answered.value(within: .seconds(30)) == Data("ok".utf8))
        #expect(inTask.values == [false])
    }

    @Test(arguments: StackShape.allCases)
    func cancellingDuringAnAttemptStopsAtOnceAndStartsNoOther(_ shape: StackShape) async throws {
        let attempts = Counter()
        let started = Promise<Void>()
        let hanging: Transport = { _ in
            attempts.increment()
            started.resolve()
            try await Task.sleep(for: .seconds(60))
            throw URLError(.timedOut)
        }
        let send = shape.session(sending: hanging).networking(with: .retry(policy(5, backoff: .immediate), clock: TestClock()))
        let call = send(Endpoint(baseURL: URL(string: "https://shop.test/")!))
        try await started.value(within: .seconds(30))
        call.cancel()
        #expect(await call.result(within: .seconds(5)).failure is CancellationError)
        try await Task.sleep(for: .milliseconds(50))
        #expect(attempts.value == 1)
    }

    @Test(arguments: StackShape.allCases)
    func eachAttemptGoesOutWithTheCallersContext(_ shape: StackShape) async throws {
        let seen = Collected<UUID?>()
        let flaky = stubTransport { request in
            seen.append(RequestContext.current.id)
            return (Data(), stubResponse(for: request, status: seen.values.count < 3 ? 503 : 200))
        }
        let id = UUID()
        let transport = shape.session(sending: flaky).transport(with: .retry(policy(3, backoff: .immediate), clock: TestClock()))
        _ = try await RequestContext.withID(id) { try await transport(URLRequest(url: URL(string: "https://shop.test/")!)) }
        #expect(seen.values == [id, id, id])
    }

    @Test func aRetriedCallOnThePackagesSessionCompletesOutsideAnyTask() async throws {
        let server = try LoopbackServer { request in
            request.sequenceNumber == 0 ? .text("busy", status: 503) : .text("ok")
        }
        defer { server.stop() }
        let send = makeTestNetworkSession().networking(
            with: .numbered(), .retry(policy(3, backoff: .immediate), clock: TestClock()), .timeout(after: .seconds(30)),
            .validatingStatus())
        let outsideTask = Collected<Bool>()
        let future = send(Endpoint(baseURL: server.baseURL, path: "/")).map { data in
            outsideTask.append(withUnsafeCurrentTask { $0 == nil })
            return data
        }
        #expect(try await future.value(within: .seconds(30)) == Data("ok".utf8))
        #expect(outsideTask.values == [true])
        #expect(server.requestCount == 2)
    }

    @Test func callsCancelledAtRandomMomentsOfTheirAttemptsAndWaitsEachEndOnce() async throws {
        // Each path's first request is answered 503, so that a call is cancelled during its
        // first attempt, its wait, or its second attempt.
        let seen = Collected<String>()
        let server = try LoopbackServer { request in
            seen.append(request.path)
            return seen.values.filter { $0 == request.path }.count == 1 ? .text("busy", status: 503) : .text("ok")
        }
        defer { server.stop() }
        let policy = RetryPolicy(maxAttempts: 3, backoff: .constant(.microseconds(300)))
        let send = NetworkSession(configuration: .default).networking(with: .retry(policy), .validatingStatus())
        let outcomes = StressOutcomes()
        try await withWatchdog(seconds: 300, "200 retried calls cancelled at random moments") {
            for index in 0..<200 {
                let future = send(Endpoint(baseURL: server.baseURL, path: "/\(index)"))
                outcomes.started += 1
                if index % 4 != 0 {
                    try await Task.sleep(nanoseconds: UInt64.random(in: 0...1_000) * 1_000)
                }
                future.cancel()
                outcomes.record(await Result { try await future.timeout(after: .seconds(60)).value })
            }
        }
        #expect(outcomes.unexpected.isEmpty, "\(outcomes.unexpected.prefix(3))")
        #expect(outcomes.ended == outcomes.started)
        #expect(outcomes.cancelled > 0)
    }
}

enum HTTPDateFixture {
    /// Fri, 15 Jan 2027 08:00:00 GMT.
    static let eightOClock = Date(timeIntervalSince1970: 1_800_000_000)
}
