import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Composer+Time")
struct TimeComposersTests {
    let request = URLRequest(url: URL(string: "https://shop.test/")!)

    /// A transport that answers only when the test says so.
    func gatedTransport(_ gate: Promise<Void>) -> Transport {
        { request in
            try await gate.value
            return (Data("late".utf8), stubResponse(for: request))
        }
    }

    @Test func timeoutFailsWithTimeoutErrorWhenTheTransportIsTooSlow() async throws {
        let clock = TestClock()
        let gate = Promise<Void>()
        let transport = NetworkSession(sending: gatedTransport(gate)).transport(with: .timeout(after: .seconds(5), clock: clock))
        let call = Task { try await transport(request) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        let error = await #expect(throws: TimeoutError.self) { try await call.value }
        #expect(error?.description == "The operation did not complete within 5.0 seconds.")
        // The transport's wait is cancelled just after the answer is given (the answer comes
        // first, so that the cancellation cannot answer in its place).
        try await waitUntil("the transport's wait is cancelled") { gate.isCancelled }
    }

    @Test func timeoutReturnsAtItsDeadlineWhenTheWorkBelowIgnoresCancellation() async throws {
        let clock = TestClock()
        let stuck = UncancellableGate()
        let transport = NetworkSession(sending: { request in
            await stuck.wait()
            return (Data("late".utf8), stubResponse(for: request))
        }).transport(with: .timeout(after: .seconds(2), clock: clock))
        let call = Future { try await transport(self.request) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        // The work below ends only when the gate opens, after this: an answer at all is the
        // deadline's, not the work's (a time margin here failed under ThreadSanitizer's load).
        let result = await call.result(within: .seconds(30))
        #expect((result.failure as? TimeoutError)?.limit == .seconds(2))  // the composer's, not the test's limit
        stuck.open()
    }

    @Test func timeoutAboveAuthenticationBoundsTheWaitForAStuckRefresh() async throws {
        let clock = TestClock()
        let server = try LoopbackServer { _ in .text("who are you?", status: 401) }
        defer { server.stop() }
        let silentTokenServer = UncancellableGate()
        let began = Promise<Void>()
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                began.resolve()
                await silentTokenServer.wait()  // ignores cancellation
                return .bearer("fresh")
            },
            clock: clock
        )
        let transport = makeTestNetworkSession().transport(with: .timeout(after: .seconds(2), clock: clock), .authenticated(by: auth))
        // Two callers: the first starts the refresh, the second waits for it.
        let calls = (0..<2).map { _ in Future { try await transport(URLRequest(url: server.url(for: "/me"))) } }
        try await began.value(within: .seconds(30))
        for _ in 0..<2 { _ = await server.takeRequest(timeout: .seconds(30)) }
        try await clock.waitForSleepers(count: 1)  // one timer watches both deadlines
        clock.advance(by: .seconds(2))
        for call in calls {
            #expect((await call.result(within: .seconds(30)).failure as? TimeoutError)?.limit == .seconds(2))
        }
        silentTokenServer.open()
        #expect(server.requestCount == 2)  // nobody retried after the deadline
    }

    @Test func timeoutLetsAFastAnswerThrough() async throws {
        let clock = TestClock()
        let transport = NetworkSession(sending: stubTransport(data: Data("fast".utf8))).transport(
            with: .timeout(after: .seconds(5), clock: clock))
        #expect(try await transport(request).0 == Data("fast".utf8))
    }

    @Test func delayedHoldsTheRequestBackUntilTheClockMoves() async throws {
        let clock = TestClock()
        let sent = Promise<Void>()
        let base = stubTransport { request in
            sent.resolve()
            return (Data(), stubResponse(for: request))
        }
        let transport = NetworkSession(sending: base).transport(with: .delayed(by: .seconds(2), clock: clock))
        let call = Task { try await transport(request) }
        try await clock.waitForSleepers(count: 1)
        #expect(sent.isPending)
        clock.advance(by: .seconds(2))
        _ = try await call.value
        #expect(sent.isPending == false)
    }

    @Test func cancellingDuringTheDelayStopsAtOnce() async throws {
        let clock = TestClock()
        let sent = Counter()
        let base = stubTransport { request in
            sent.increment()
            return (Data(), stubResponse(for: request))
        }
        let transport = NetworkSession(sending: base).transport(with: .delayed(by: .seconds(2), clock: clock))
        let call = Task { try await transport(request) }
        try await clock.waitForSleepers(count: 1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(sent.value == 0)
    }

    @Test func limitsAndDelaysTooLongForTheSystemsTimersWaitInsteadOfStoppingTheProcess() async throws {
        let request = URLRequest(url: URL(string: "https://shop.test/products/7")!)
        let slow: Transport = { request in
            try await Task.sleep(for: .milliseconds(50))  // the timer is asleep by then
            return (Data("ok".utf8), stubResponse(for: request))
        }
        let slowAnswer = NetworkSession(sending: slow).transport(with: .timeout(after: .seconds(Int64.max)))
        #expect(try await slowAnswer(request).0 == Data("ok".utf8))

        let delayed = NetworkSession(sending: stubTransport(data: Data("ok".utf8))).transport(with: .delayed(by: .seconds(Int64.max)))
        let call = Future { try await delayed(request) }
        try await Task.sleep(for: .milliseconds(50))  // the wait has begun by then
        call.cancel()
        #expect(await call.result(within: .seconds(30)).failure is CancellationError)
    }
}

/// A wait that ignores cancellation, like a token server that never answers: only ``open()``
/// ends it.
final class UncancellableGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func open() {
        let waiting = lock.withLock {
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        waiting.forEach { $0.resume() }
    }
}
