import Foundation
import FunctionalNetworkingTesting
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("EventStreamReconnection: when an event stream reconnects")
struct EventStreamReconnectionTests {
    @Test("By default: 3 s, at most 60 s after failures, for as long as it takes")
    func defaults() {
        let policy = EventStreamReconnection.default
        #expect(policy.delay == .seconds(3))
        #expect(policy.maximumDelay == .seconds(60))
        #expect(policy.maximumAttempts == nil)
        #expect(policy == EventStreamReconnection())
    }

    @Test(".never makes no reconnection")
    func never() {
        #expect(EventStreamReconnection.never.maximumAttempts == 0)
    }

    @Test("A negative delay becomes zero, a maximum below the delay becomes the delay, negative attempts become none")
    func clamping() {
        let negative = EventStreamReconnection(delay: .seconds(-1), maximumDelay: .seconds(-5), maximumAttempts: -3)
        #expect(negative.delay == .zero)
        #expect(negative.maximumDelay == .zero)
        #expect(negative.maximumAttempts == 0)

        let inverted = EventStreamReconnection(delay: .seconds(10), maximumDelay: .seconds(2))
        #expect(inverted.delay == .seconds(10))
        #expect(inverted.maximumDelay == .seconds(10))
        #expect(inverted.wait(afterFailures: 3, serverDelay: nil) == .seconds(10))
    }

    @Test("The first reconnection waits the delay; each failure in a row doubles it, up to the maximum")
    func doubling() {
        let policy = EventStreamReconnection(delay: .seconds(1), maximumDelay: .seconds(20))
        let waits = (0...7).map { policy.wait(afterFailures: $0, serverDelay: nil) }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(20), .seconds(20), .seconds(20)])
        #expect(policy.wait(afterFailures: 1_000_000, serverDelay: nil) == .seconds(20))
        #expect(policy.wait(afterFailures: .max, serverDelay: nil) == .seconds(20))
    }

    @Test("The server's retry: time replaces the delay, and doubles after failures the same way")
    func serverDelayReplacesDelay() {
        let policy = EventStreamReconnection(delay: .seconds(3), maximumDelay: .seconds(10))
        #expect(policy.wait(afterFailures: 0, serverDelay: .milliseconds(500)) == .milliseconds(500))
        #expect(policy.wait(afterFailures: 1, serverDelay: .milliseconds(500)) == .seconds(1))
        #expect(policy.wait(afterFailures: 3, serverDelay: .milliseconds(500)) == .seconds(4))
        #expect(policy.wait(afterFailures: 6, serverDelay: .milliseconds(500)) == .seconds(10))
        #expect(policy.wait(afterFailures: 0, serverDelay: .zero) == .zero)
        #expect(policy.wait(afterFailures: 4, serverDelay: .zero) == .zero)
    }

    @Test("A server's retry: time beyond the maximum is honoured as it is, after failures too")
    func serverDelayBeyondMaximum() {
        let policy = EventStreamReconnection(delay: .seconds(1), maximumDelay: .seconds(60))
        #expect(policy.wait(afterFailures: 0, serverDelay: .seconds(600)) == .seconds(600))
        #expect(policy.wait(afterFailures: 5, serverDelay: .seconds(600)) == .seconds(600))
    }

    @Test("A zero delay reconnects at once, however many failures")
    func zeroDelay() {
        let policy = EventStreamReconnection(delay: .zero)
        #expect((0...20).allSatisfy { policy.wait(afterFailures: $0, serverDelay: nil) == .zero })
    }

    @Test("End to end: empty connections wait 1, 2, 4, 5, 5 s on the clock, then the sequence gives up")
    func waitsOnTheClock() async throws {
        let server = try LoopbackServer { _ in .eventStream([]) }
        defer { server.stop() }
        let clock = TestClock()
        let reconnection = EventStreamReconnection(delay: .seconds(1), maximumDelay: .seconds(5), maximumAttempts: 5)
        let events = eventStreaming(from: makeTestNetworkSession().transport, reconnection: reconnection, clock: clock)
        let reading = Task {
            var count = 0
            for try await _ in events(Endpoint(baseURL: server.url(for: "/events"))) { count += 1 }
            return count
        }

        var waits: [Duration] = []
        for _ in 0..<5 {
            try await clock.waitForSleepers(count: 1)
            let before = clock.now
            #expect(clock.advanceToNextDeadline())
            waits.append(before.duration(to: clock.now))
        }

        #expect(try await reading.value == 0)
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
        #expect(server.requestCount == 6)
    }

    @Test("End to end: the server's retry: time is the next wait, and an event resets the doubling")
    func serverRetryOnTheClock() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.events([ServerSentEvent(data: "one", retry: .milliseconds(1_500))]))
        server.enqueue(.eventStream([]))
        server.enqueue(.events([ServerSentEvent(data: "two")]))
        server.enqueue(.eventStream([]))
        server.enqueue(.eventStream([]))
        let clock = TestClock()
        let reconnection = EventStreamReconnection(delay: .seconds(1), maximumDelay: .seconds(60), maximumAttempts: 2)
        let events = eventStreaming(from: makeTestNetworkSession().transport, reconnection: reconnection, clock: clock)
        let reading = Task {
            var data: [String] = []
            for try await event in events(Endpoint(baseURL: server.url(for: "/events"))) { data.append(event.data) }
            return data
        }

        var waits: [Duration] = []
        for _ in 0..<4 {
            try await clock.waitForSleepers(count: 1)
            let before = clock.now
            #expect(clock.advanceToNextDeadline())
            waits.append(before.duration(to: clock.now))
        }

        // "one" (retry: 1.5 s), then 1.5 s; empty, 3 s; "two", 1.5 s again; empty, 3 s; empty: two reconnections in a
        // row without an event, the end.
        #expect(try await reading.value == ["one", "two"])
        #expect(waits == [.milliseconds(1_500), .seconds(3), .milliseconds(1_500), .seconds(3)])
        #expect(server.requestCount == 5)
    }

    @Test("End to end: .never reads one connection and ends with it")
    func neverEndsWithTheConnection() async throws {
        let server = try LoopbackServer { _ in .events([ServerSentEvent(data: "only")]) }
        defer { server.stop() }
        let events = eventStreaming(from: makeTestNetworkSession().transport, reconnection: .never)

        var data: [String] = []
        for try await event in events(Endpoint(baseURL: server.url(for: "/events"))) { data.append(event.data) }

        #expect(data == ["only"])
        #expect(server.requestCount == 1)
    }
}
