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

    @Test(arguments: StackShape.allCases)
    func waitingRequestsGoFirstInFirstOut(_ shape: StackShape) async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let transport = shape.session(sending: upstream.transport).transport(with: .throttled(by: throttle))

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

    @Test(arguments: StackShape.allCases)
    func aCancelledWaiterLeavesTheQueueAtOnceAndTheNextGetsTheSlot(_ shape: StackShape) async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let transport = shape.session(sending: upstream.transport).transport(with: .throttled(by: throttle))

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

    @Test(arguments: StackShape.allCases)
    func aFailedRequestGivesItsSlotBack(_ shape: StackShape) async throws {
        let throttle = RequestThrottle(maxConcurrent: 1)
        let failing = shape.session(sending: stubTransport { _ in throw URLError(.notConnectedToInternet) }).transport(
            with: .throttled(by: throttle))
        let working = shape.session(sending: stubTransport(data: Data("ok".utf8))).transport(with: .throttled(by: throttle))

        await #expect(throws: URLError.self) { try await failing(Self.request("/fails")) }
        #expect(throttle.inFlightCount == 0)
        #expect(try await working(Self.request("/works")).0 == Data("ok".utf8))
        #expect(throttle.inFlightCount == 0)
    }

    @Test(arguments: StackShape.allCases)
    func aCancelledRequestInFlightGivesItsSlotBack(_ shape: StackShape) async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let transport = shape.session(sending: upstream.transport).transport(with: .throttled(by: throttle))

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

    @Test(arguments: StackShape.allCases)
    func aRequestWaitingForItsBusyHostDoesNotHoldBackOtherHosts(_ shape: StackShape) async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 2, perHost: 1)
        let transport = shape.session(sending: upstream.transport).transport(with: .throttled(by: throttle))

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

    @Test(arguments: StackShape.allCases)
    func differentPortsAreDifferentHosts(_ shape: StackShape) async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 4, perHost: 1)
        let transport = shape.session(sending: upstream.transport).transport(with: .throttled(by: throttle))

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

    @Test func awaitedAndDirectCallersWaitInOneQueueInOneOrder() async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let transports = StackShape.allCases.map { $0.session(sending: upstream.transport).transport(with: .throttled(by: throttle)) }

        let holder = Task { try await transports[0](Self.request("/held")).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.paths == ["/held"] })
        var waiters: [Task<Data, any Error>] = []
        for index in 1...10 {
            let transport = transports[index % 2]
            waiters.append(Task { try await transport(Self.request("/\(index)")).0 })
            try #require(await TrafficTestSupport.waitUntil { throttle.waitingCount == index })
        }
        upstream.open()

        _ = try await TrafficTestSupport.outcome(of: holder).get()
        for waiter in waiters {
            _ = try await TrafficTestSupport.outcome(of: waiter).get()
        }
        #expect(upstream.paths == ["/held"] + (1...10).map { "/\($0)" })
        #expect(throttle.inFlightCount == 0)
    }

    @Test func aCancelledDirectWaiterLeavesTheQueueAtOnceAndSendsNothing() async throws {
        let upstream = GatedTransport()
        let throttle = RequestThrottle(maxConcurrent: 1)
        let send = directNetworkSession(sending: upstream.transport).networking(with: .throttled(by: throttle))
        let endpoint = { (path: String) in Endpoint(baseURL: URL(string: "https://shop.test")!, path: path) }

        let holder = send(endpoint("/held"))
        try #require(await TrafficTestSupport.waitUntil { upstream.paths == ["/held"] })
        let cancelled = send(endpoint("/cancelled"))
        let next = send(endpoint("/next"))
        #expect(throttle.waitingCount == 2)
        cancelled.cancel()
        #expect(throttle.waitingCount == 1)
        #expect(cancelled.result?.failure is CancellationError)
        upstream.open()

        _ = try await holder.value(within: .seconds(30))
        _ = try await next.value(within: .seconds(30))
        #expect(upstream.paths == ["/held", "/next"])
        #expect(throttle.inFlightCount == 0)
        #expect(throttle.waitingCount == 0)
    }

    @Test func overThePackagesSessionWaitingRequestsGoAndCompleteOutsideAnyTask() async throws {
        let server = try LoopbackServer { request in .text(request.path).delayed(by: .milliseconds(20)) }
        defer { server.stop() }
        let throttle = RequestThrottle(maxConcurrent: 1)
        let send = makeTestNetworkSession().networking(with: .throttled(by: throttle), .validatingStatus())

        let witnesses = (0..<4).map { _ in TaskWitness() }
        let futures = witnesses.enumerated().map { index, witness in
            send(Endpoint(baseURL: server.baseURL, path: "/\(index)")).map { data in
                witness.record()
                return data
            }
        }
        #expect(throttle.waitingCount == 3)
        for (index, future) in futures.enumerated() {
            #expect(try await future.value(within: .seconds(30)) == Data("/\(index)".utf8))
        }
        #expect(witnesses.map(\.ranOutsideTask) == [true, true, true, true])
        #expect(server.peakConcurrentRequests == 1)
        #expect(throttle.inFlightCount == 0)
    }

    @Test func directCallsCancelledAtRandomMomentsEachEndOnceAndGiveTheirSlotsBack() async throws {
        let server = try LoopbackServer { request in
            let cacheable = request.path.hasSuffix("cached")
            return LoopbackServer.Response(headers: cacheable ? [.init("Cache-Control", "max-age=600")] : [], body: Data(request.path.utf8))
        }
        defer { server.stop() }
        let throttle = RequestThrottle(maxConcurrent: 2, perHost: 1)
        let send = NetworkSession(configuration: .default).networking(with: .throttled(by: throttle))
        let ended = Counter()
        var (started, cancelledInFlight) = (0, 0)
        for round in 0..<200 {
            // Three calls to one host, so that two wait; one of them is cancelled at a moment
            // between 0 and 1 ms. Every other round the answers may come from the URL cache.
            let suffix = round.isMultiple(of: 2) ? "-cached" : ""
            let futures = (0..<3).map { index in send(Endpoint(baseURL: server.baseURL, path: "/\(round % 10)-\(index)\(suffix)")) }
            started += futures.count
            for future in futures {
                future.observe { _ in ended.increment() }
            }
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...1_000) * 1_000)
            let cancelled = round % 3
            futures[cancelled].cancel()
            for (index, future) in futures.enumerated() {
                let failure = await future.result(within: .seconds(30)).failure
                if index == cancelled {
                    #expect(failure == nil || failure is CancellationError, "round \(round): \(String(describing: failure))")
                    cancelledInFlight += failure == nil ? 0 : 1
                } else {
                    #expect(failure == nil, "round \(round), call \(index): \(String(describing: failure))")
                }
            }
        }
        let expected = started
        #expect(await TrafficTestSupport.waitUntil { ended.value == expected })
        #expect(cancelledInFlight > 0)
        #expect(throttle.inFlightCount == 0)
        #expect(throttle.waitingCount == 0)
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
