import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Composer.throttled")
struct ThrottlingTests {
    @Test func fiveHundredConcurrentRequestsNeverHaveMoreThanTheLimitInFlight() async throws {
        // The first answers wait until eight requests are in flight, so the peak reaches the limit
        // however slowly a loaded machine sends them.
        let meeting = Meeting(of: 8)
        let server = try LoopbackServer { request in
            meeting.arriveAndWait()
            return .text(request.path).delayed(by: .milliseconds(50))
        }
        defer { server.stop() }
        let transport = makeTestNetworkSession(timeout: 60).transport(with: .throttled(maxConcurrent: 8))

        let callers = (0..<500).map { index in
            Future { String(decoding: try await transport(URLRequest(url: server.url(for: "/\(index)"))).0, as: UTF8.self) }
        }
        for (index, caller) in callers.enumerated() {
            #expect(try await caller.value(within: .seconds(120)) == "/\(index)")
        }
        #expect(server.requestCount == 500)
        #expect(server.peakConcurrentRequests == 8)
    }

    @Test func eachHostHasItsOwnLimit() async throws {
        let (firstMeeting, secondMeeting) = (Meeting(of: 3), Meeting(of: 3))
        let first = try LoopbackServer { _ in
            firstMeeting.arriveAndWait()
            return .text("first").delayed(by: .milliseconds(50))
        }
        defer { first.stop() }
        let second = try LoopbackServer { _ in
            secondMeeting.arriveAndWait()
            return .text("second").delayed(by: .milliseconds(50))
        }
        defer { second.stop() }
        let throttle = RequestThrottle(maxConcurrent: 8, perHost: 3)
        let transport = makeTestNetworkSession(timeout: 60).transport(with: .throttled(by: throttle))

        let callers = (0..<120).map { index in
            let server = index.isMultiple(of: 2) ? first : second
            return Future { try await transport(URLRequest(url: server.url(for: "/\(index)"))).0 }
        }
        for caller in callers {
            _ = try await caller.value(within: .seconds(120))
        }
        #expect(first.requestCount == 60)
        #expect(second.requestCount == 60)
        #expect(first.peakConcurrentRequests == 3)
        #expect(second.peakConcurrentRequests == 3)
        #expect(throttle.inFlightCount == 0)
    }

    @Test func waitingRequestsGoFirstInFirstOut() async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .throttled(by: throttle))

        let holder = Task { try await transport(Self.request("/held")).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.paths == ["/held"] })
        var waiters: [Task<Data, any Error>] = []
        for index in 1...10 {
            waiters.append(Task { try await transport(Self.request("/\(index)")).0 })
            try #require(await TrafficTestSupport.waitUntil { throttle.waitingCount == index })
        }
        upstream.open()

        _ = try await TrafficTestSupport.outcome(of: holder).get()
        for waiter in waiters {
            _ = try await TrafficTestSupport.outcome(of: waiter).get()
        }
        #expect(upstream.paths == ["/held"] + (1...10).map { "/\($0)" })
    }

    @Test func aCancelledWaiterLeavesTheQueueAtOnceAndTheNextGetsTheSlot() async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .throttled(by: throttle))

        let holder = Task { try await transport(Self.request("/held")).0 }
        try #require(await TrafficTestSupport.waitUntil { throttle.inFlightCount == 1 })
        let cancelled = Task { try await transport(Self.request("/cancelled")).0 }
        try #require(await TrafficTestSupport.waitUntil { throttle.waitingCount == 1 })
        let next = Task { try await transport(Self.request("/next")).0 }
        try #require(await TrafficTestSupport.waitUntil { throttle.waitingCount == 2 })

        cancelled.cancel()
        #expect(throttle.waitingCount == 1)
        #expect(await TrafficTestSupport.outcome(of: cancelled).failure is CancellationError)

        upstream.open()
        _ = try await TrafficTestSupport.outcome(of: holder).get()
        _ = try await TrafficTestSupport.outcome(of: next).get()
        #expect(upstream.paths == ["/held", "/next"])
        #expect(throttle.inFlightCount == 0)
        #expect(throttle.waitingCount == 0)
    }

    @Test func aFailedRequestGivesItsSlotBack() async throws {
        let throttle = RequestThrottle(maxConcurrent: 1)
        let failing = NetworkSession(sending: stubTransport { _ in throw URLError(.notConnectedToInternet) }).transport(
            with: .throttled(by: throttle))
        let working = NetworkSession(sending: stubTransport(data: Data("ok".utf8))).transport(with: .throttled(by: throttle))

        await #expect(throws: URLError.self) { try await failing(Self.request("/fails")) }
        #expect(throttle.inFlightCount == 0)
        #expect(try await working(Self.request("/works")).0 == Data("ok".utf8))
        #expect(throttle.inFlightCount == 0)
    }

    @Test func aCancelledRequestInFlightGivesItsSlotBack() async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .throttled(by: throttle))

        let holder = Task { try await transport(Self.request("/held")).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.paths == ["/held"] })
        let next = Task { try await transport(Self.request("/next")).0 }
        try #require(await TrafficTestSupport.waitUntil { throttle.waitingCount == 1 })

        holder.cancel()
        #expect(await TrafficTestSupport.outcome(of: holder).failure is CancellationError)
        // The freed slot goes to the waiter, which is held at the gate in turn.
        try #require(await TrafficTestSupport.waitUntil { upstream.paths == ["/held", "/next"] })
        #expect(throttle.waitingCount == 0)
        upstream.open()
        _ = try await TrafficTestSupport.outcome(of: next).get()
        #expect(throttle.inFlightCount == 0)
    }

    @Test func aRequestWaitingForItsBusyHostDoesNotHoldBackOtherHosts() async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 2, perHost: 1)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .throttled(by: throttle))

        let busy = Task { try await transport(Self.request("/a1", host: "a.test")).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.paths == ["/a1"] })
        let queued = Task { try await transport(Self.request("/a2", host: "a.test")).0 }
        try #require(await TrafficTestSupport.waitUntil { throttle.waitingCount == 1 })
        let other = Task { try await transport(Self.request("/b1", host: "b.test")).0 }

        try #require(await TrafficTestSupport.waitUntil { upstream.paths == ["/a1", "/b1"] })
        #expect(throttle.waitingCount == 1)
        upstream.open()
        for task in [busy, queued, other] {
            _ = try await TrafficTestSupport.outcome(of: task).get()
        }
        #expect(upstream.paths == ["/a1", "/b1", "/a2"])
    }

    @Test func differentPortsAreDifferentHosts() async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 4, perHost: 1)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .throttled(by: throttle))

        let tasks = ["http://h.test:8080/1", "http://h.test:8081/2", "http://H.test:80/3", "http://h.test/4"].map { text in
            Task { try await transport(URLRequest(url: URL(string: text)!)).0 }
        }
        // Ports 8080, 8081 and 80 go at once; `http://h.test` is port 80 too, so it waits.
        try #require(await TrafficTestSupport.waitUntil { upstream.paths.count == 3 && throttle.waitingCount == 1 })
        #expect(throttle.inFlightCount == 3)
        upstream.open()
        for task in tasks {
            _ = try await TrafficTestSupport.outcome(of: task).get()
        }
    }

    @Test func limitsBelowOneCountAsOne() {
        let throttle = RequestThrottle(maxConcurrent: 0, perHost: -3)
        #expect(throttle.maxConcurrent == 1)
        #expect(throttle.maxPerHost == 1)
        #expect(RequestThrottle(maxConcurrent: 5).maxPerHost == nil)
    }

    // MARK: - Helpers

    private static func request(_ path: String, host: String = "shop.test") -> URLRequest {
        URLRequest(url: URL(string: "https://\(host)\(path)")!)
    }
}

/// Holds the first `count` callers until all of them have arrived (or 30 s have passed); later
/// callers go through at once. Used in a LoopbackServer dispatcher, it makes the server see
/// `count` requests in flight together without relying on timing.
private final class Meeting: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0

    init(of count: Int) {
        self.count = count
    }

    func arriveAndWait() {
        let deadline = Date(timeIntervalSinceNow: 30)
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < count, condition.wait(until: deadline) {}
    }
}

/// A transport that records each request's path as it arrives and holds every request until
/// ``open()``; a held request whose task is cancelled throws `CancellationError`.
private final class GatedTransport: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private let gate = Promise<Void>()

    init() {
        // Pinned, so that a cancelled call awaiting the gate does not cancel it for the others.
        gate.observe { _ in }
    }

    var paths: [String] { lock.withLock { recorded } }

    func open() {
        gate.resolve()
    }

    var transport: Transport {
        { [self] request in
            lock.withLock { recorded.append(request.url?.path ?? "") }
            try await gate.value
            return (Data(), stubResponse(for: request))
        }
    }
}
