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
        let transport = compose(gatedTransport(gate), with: .timeout(after: .seconds(5), clock: clock))
        let call = Task { try await transport(request) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        let error = await #expect(throws: TimeoutError.self) { try await call.value }
        #expect(error?.description == "The operation did not complete within 5.0 seconds.")
        #expect(gate.isCancelled)  // the transport's wait was cancelled
    }

    @Test func timeoutLetsAFastAnswerThrough() async throws {
        let clock = TestClock()
        let transport = compose(stubTransport(data: Data("fast".utf8)), with: .timeout(after: .seconds(5), clock: clock))
        #expect(try await transport(request).0 == Data("fast".utf8))
    }

    @Test func delayedHoldsTheRequestBackUntilTheClockMoves() async throws {
        let clock = TestClock()
        let sent = Promise<Void>()
        let base = stubTransport { request in
            sent.resolve()
            return (Data(), stubResponse(for: request))
        }
        let transport = compose(base, with: .delayed(by: .seconds(2), clock: clock))
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
        let transport = compose(base, with: .delayed(by: .seconds(2), clock: clock))
        let call = Task { try await transport(request) }
        try await clock.waitForSleepers(count: 1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(sent.value == 0)
    }
}

/// A counter shared across tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            storage += 1
            return storage
        }
    }
    var value: Int { lock.withLock { storage } }
}
