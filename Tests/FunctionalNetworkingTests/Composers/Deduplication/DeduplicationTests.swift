import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Composer.deduplicated")
struct DeduplicationTests {
    let url = URL(string: "https://shop.test/products/7")!

    @Test func aThousandConcurrentIdenticalGETsReachTheServerOnce() async throws {
        // The server holds its answer until every caller has joined the shared call.
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            _ = gate.wait(timeout: .now() + 30)
            return .text("shared")
        }
        defer { server.stop() }
        defer { gate.signal() }
        let deduplicator = RequestDeduplicator()
        let transport = makeTestNetworkSession().transport(with: .deduplicated(by: deduplicator))
        let url = server.url(for: "/products/7")

        let callers = (0..<1000).map { _ in
            Future { String(decoding: try await transport(URLRequest(url: url)).0, as: UTF8.self) }
        }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 1000 })
        #expect(deduplicator.inFlightCount == 1)
        gate.signal()

        for caller in callers {
            #expect(try await caller.value(within: .seconds(30)) == "shared")
        }
        #expect(server.requestCount == 1)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test(arguments: StackShape.allCases)
    func postsWithDifferentBodiesAreNeverMerged(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(includingUnsafeMethods: true))

        let first = Future { try await transport(self.request(.post, body: "a")).0 }
        let second = Future { try await transport(self.request(.post, body: "b")).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 })
        upstream.open()

        #expect(try await first.value(within: .seconds(30)) == Data("a".utf8))
        #expect(try await second.value(within: .seconds(30)) == Data("b".utf8))
    }

    @Test(arguments: StackShape.allCases)
    func identicalPostsAreMergedOnlyWhenOptedIn(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator(includingUnsafeMethods: true)
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let callers = (0..<3).map { _ in Future { try await transport(self.request(.post, body: "same")).0 } }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 3 })
        upstream.open()

        for caller in callers {
            #expect(try await caller.value(within: .seconds(30)) == Data("same".utf8))
        }
        #expect(upstream.calls.count == 1)
    }

    @Test(arguments: StackShape.allCases)
    func unsafeMethodsPassThroughByDefault(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let callers = [HTTPMethod.post, .post, .put, .delete, .patch].map { method in
            Future { try await transport(self.request(method, body: "same")).0 }
        }
        // Each one reaches the transport while the others are still in flight.
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 5 })
        #expect(deduplicator.waitingCount == 0)
        upstream.open()
        for caller in callers {
            _ = try await caller.value(within: .seconds(30))
        }
    }

    @Test(arguments: StackShape.allCases)
    func safeMethodsOtherThanGETAreMerged(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let callers = (0..<2).map { _ in Future { try await transport(self.request(.head)).0 } }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 2 })
        upstream.open()
        for caller in callers {
            _ = try await caller.value(within: .seconds(30))
        }
        #expect(upstream.calls.count == 1)
    }

    @Test(arguments: StackShape.allCases)
    func everyHeaderMattersByDefault(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let json = Future { try await transport(self.request(headers: ["Accept": "application/json"])).0 }
        let html = Future { try await transport(self.request(headers: ["Accept": "text/html"])).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 })
        #expect(deduplicator.inFlightCount == 2)
        upstream.open()
        _ = try await json.value(within: .seconds(30))
        _ = try await html.value(within: .seconds(30))
    }

    @Test(arguments: StackShape.allCases)
    func ignoredHeadersDoNotKeepRequestsApart(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator(matching: .all(except: ["x-request-id"]))
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let callers = (0..<3).map { index in
            Future { try await transport(self.request(headers: ["X-Request-ID": "\(index)", "Accept": "a"])).0 }
        }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 3 })
        #expect(deduplicator.inFlightCount == 1)
        upstream.open()
        for caller in callers {
            _ = try await caller.value(within: .seconds(30))
        }
        #expect(upstream.calls.count == 1)
    }

    @Test(arguments: StackShape.allCases)
    func onlyTheNamedHeadersMatterWhenTheCallerNamesThem(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator(matching: .only(["Authorization"]))
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let ada = Future { try await transport(self.request(headers: ["Authorization": "ada", "X-A": "1"])).0 }
        let adaAgain = Future { try await transport(self.request(headers: ["authorization": "ada", "X-A": "2"])).0 }
        let bob = Future { try await transport(self.request(headers: ["Authorization": "bob"])).0 }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 3 })
        #expect(deduplicator.inFlightCount == 2)
        upstream.open()
        for caller in [ada, adaAgain, bob] {
            _ = try await caller.value(within: .seconds(30))
        }
        #expect(upstream.calls.count == 2)
    }

    @Test(arguments: StackShape.allCases)
    func cancellingAWaiterLeavesTheOthersWithTheAnswer(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let (leader, waiters) = try await startLeaderAndWaiters(2, through: transport, deduplicator, upstream)
        waiters[0].cancel()
        #expect(await TrafficTestSupport.outcome(of: waiters[0]).failure is CancellationError)
        #expect(deduplicator.waitingCount == 2)

        upstream.open()
        #expect(try await TrafficTestSupport.outcome(of: leader).get() == Data("GET".utf8))
        #expect(try await TrafficTestSupport.outcome(of: waiters[1]).get() == Data("GET".utf8))
        #expect(upstream.calls.count == 1)
        #expect(upstream.cancellations == 0)
    }

    @Test(arguments: StackShape.allCases)
    func aWaiterStillGetsTheAnswerWhenTheLeaderIsCancelledAsTheCallIsMadeAgain(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let (leader, waiters) = try await startLeaderAndWaiters(1, through: transport, deduplicator, upstream)
        leader.cancel()
        #expect(await TrafficTestSupport.outcome(of: leader).failure is CancellationError)
        try await upstream.cancelled.value(within: .seconds(30))

        // The waiter makes the call again, on its own.
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 })
        #expect(deduplicator.inFlightCount == 1)
        upstream.open()
        #expect(try await TrafficTestSupport.outcome(of: waiters[0]).get() == Data("GET".utf8))
        #expect(upstream.calls.count == 2)
        #expect(upstream.cancellations == 1)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test(arguments: StackShape.allCases)
    func whenTheLeaderIsCancelledExactlyOneWaiterMakesTheCallAgain(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let (leader, waiters) = try await startLeaderAndWaiters(5, through: transport, deduplicator, upstream)
        leader.cancel()
        #expect(await TrafficTestSupport.outcome(of: leader).failure is CancellationError)

        // One new call, the other four waiting for it.
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 && deduplicator.waitingCount == 5 })
        #expect(deduplicator.inFlightCount == 1)
        upstream.open()
        for waiter in waiters {
            #expect(try await TrafficTestSupport.outcome(of: waiter).get() == Data("GET".utf8))
        }
        #expect(upstream.calls.count == 2)
    }

    @Test(arguments: StackShape.allCases)
    func whenTheNewLeaderIsCancelledTooTheLastWaiterMakesTheCall(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let (leader, waiters) = try await startLeaderAndWaiters(1, through: transport, deduplicator, upstream)
        leader.cancel()
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 })
        // A third caller joins the second call, whose leader is then cancelled too.
        let third = Task { try await transport(self.request()).0 }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 2 })
        waiters[0].cancel()
        #expect(await TrafficTestSupport.outcome(of: waiters[0]).failure is CancellationError)

        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 3 })
        upstream.open()
        #expect(try await TrafficTestSupport.outcome(of: third).get() == Data("GET".utf8))
        #expect(upstream.calls.count == 3)
        #expect(upstream.cancellations == 2)
    }

    // Awaited only: a future below cannot answer once it is cancelled, so on the direct path a
    // cancelled leader's call always fails (see the next test).
    @Test func aLeaderCancelledWhoseCallStillSucceedsSharesItsAnswer() async throws {
        // A transport that ignores cancellation: the call answers all the same.
        let gate = Promise<Void>()
        let calls = Counter()
        let ignoring: Transport = { request in
            calls.increment()
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                gate.observe { _ in resumed.resume() }
            }
            return (Data("answer".utf8), stubResponse(for: request))
        }
        let deduplicator = RequestDeduplicator()
        let transport = NetworkSession(sending: ignoring).transport(with: .deduplicated(by: deduplicator))

        let leader = Task { try await transport(self.request()).0 }
        try #require(await TrafficTestSupport.waitUntil { calls.value == 1 })
        let waiter = Task { try await transport(self.request()).0 }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 2 })
        leader.cancel()
        gate.resolve()

        #expect(try await TrafficTestSupport.outcome(of: leader).get() == Data("answer".utf8))
        #expect(try await TrafficTestSupport.outcome(of: waiter).get() == Data("answer".utf8))
        #expect(calls.value == 1)
    }

    @Test func onTheDirectPathACancelledLeadersCallIsCancelledWithItAndItsWaiterMakesTheCallAgain() async throws {
        // The same transport as above, which ignores cancellation: the future below is cancelled
        // all the same, so the call fails, and is the leader's alone.
        let gate = Promise<Void>()
        let calls = Counter()
        let ignoring: Transport = { request in
            calls.increment()
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                gate.observe { _ in resumed.resume() }
            }
            return (Data("answer".utf8), stubResponse(for: request))
        }
        let deduplicator = RequestDeduplicator()
        let transport = directNetworkSession(sending: ignoring).transport(with: .deduplicated(by: deduplicator))

        let leader = Task { try await transport(self.request()).0 }
        try #require(await TrafficTestSupport.waitUntil { calls.value == 1 })
        let waiter = Task { try await transport(self.request()).0 }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 2 })
        leader.cancel()
        #expect(await TrafficTestSupport.outcome(of: leader).failure is CancellationError)
        try #require(await TrafficTestSupport.waitUntil { calls.value == 2 })
        gate.resolve()

        #expect(try await TrafficTestSupport.outcome(of: waiter).get() == Data("answer".utf8))
        #expect(calls.value == 2)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test(arguments: StackShape.allCases)
    func cancellingEveryCallerCancelsTheUpstreamCall(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let (leader, waiters) = try await startLeaderAndWaiters(1, through: transport, deduplicator, upstream)
        waiters[0].cancel()
        #expect(await TrafficTestSupport.outcome(of: waiters[0]).failure is CancellationError)
        #expect(upstream.cancellations == 0)
        leader.cancel()

        #expect(await TrafficTestSupport.outcome(of: leader).failure is CancellationError)
        try await upstream.cancelled.value(within: .seconds(30))
        #expect(deduplicator.inFlightCount == 0)
        #expect(deduplicator.waitingCount == 0)

        // The abandoned call is gone: the next identical request goes upstream afresh.
        upstream.open()
        let next = Task { try await transport(self.request()).0 }
        #expect(try await TrafficTestSupport.outcome(of: next).get() == Data("GET".utf8))
        #expect(upstream.calls.count == 2)
    }

    @Test(arguments: StackShape.allCases)
    func aCallerCancelledBeforeItJoinsGetsCancellationErrorAndTheCallGoesOn(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let leader = Task { try await transport(self.request()).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 1 })
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport(self.request()).0
        }
        #expect(await TrafficTestSupport.outcome(of: late).failure is CancellationError)

        upstream.open()
        #expect(try await TrafficTestSupport.outcome(of: leader).get() == Data("GET".utf8))
        #expect(upstream.calls.count == 1)
        #expect(upstream.cancellations == 0)
    }

    @Test(arguments: StackShape.allCases)
    func callsThatAnswerWithoutSuspendingAreNeverShared(_ shape: StackShape) async throws {
        let calls = Counter()
        let immediate: Transport = { request in
            calls.increment()
            return (Data("now".utf8), stubResponse(for: request))
        }
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: immediate).transport(with: .deduplicated(by: deduplicator))

        for _ in 0..<3 {
            #expect(try await transport(request()).0 == Data("now".utf8))
        }
        #expect(calls.value == 3)
        #expect(deduplicator.inFlightCount == 0)
        #expect(deduplicator.waitingCount == 0)
    }

    @Test func aCallerCancelledOverTheNetworkGetsCancellationError() async throws {
        let server = try LoopbackServer { _ in .text("late").withFault(.stall) }
        defer { server.stop() }
        let deduplicator = RequestDeduplicator()
        let transport = makeTestNetworkSession().transport(with: .deduplicated(by: deduplicator))
        let url = server.url(for: "/stalls")

        let task = Task { try await transport(URLRequest(url: url)).0 }
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        task.cancel()

        #expect(await TrafficTestSupport.outcome(of: task).failure is CancellationError)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test(arguments: StackShape.allCases)
    func anErrorIsSharedByAllWaiters(_ shape: StackShape) async throws {
        let upstream = HeldTransport(failingWith: URLError(.badServerResponse))
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        let callers = (0..<3).map { _ in Future { try await transport(self.request()).0 } }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 3 })
        upstream.open()

        for caller in callers {
            let error = await caller.result(within: .seconds(30)).failure
            #expect((error as? URLError)?.code == .badServerResponse)
        }
        #expect(upstream.calls.count == 1)
    }

    @Test(arguments: StackShape.allCases)
    func aFinishedCallIsForgottenSoTheNextRequestGoesUpstream(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        upstream.open()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))

        _ = try await transport(request())
        _ = try await transport(request())
        #expect(upstream.calls.count == 2)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test(arguments: StackShape.allCases)
    func requestsWithABodyStreamPassThrough(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))
        var streamed = request(.get)
        streamed.httpBodyStream = InputStream(data: Data("x".utf8))
        let sent = streamed

        let callers = (0..<2).map { _ in Future { try await transport(sent).0 } }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 })
        #expect(deduplicator.waitingCount == 0)
        upstream.open()
        for caller in callers {
            _ = try await caller.value(within: .seconds(30))
        }
    }

    @Test(arguments: StackShape.allCases)
    func theSharedCallRunsInAContextOfItsOwnAndEachCallersLimitAppliesToItsAnswer(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let seen = Collected<RequestContext>()
        let recording: Transport = { request in
            seen.append(RequestContext.current)
            return try await upstream.transport(request)
        }
        let deduplicator = RequestDeduplicator()
        let transport = shape.session(sending: recording).transport(with: .deduplicated(by: deduplicator))
        let limited = RequestContext(id: UUID(), number: 1, maximumResponseSize: 2)

        let small = Task { try await RequestContext.$current.withValue(limited) { try await transport(self.request()).0 } }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 1 })
        let large = Task {
            try await RequestContext.$current.withValue(RequestContext(id: UUID())) { try await transport(self.request()).0 }
        }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 2 })
        upstream.open()

        let error = await TrafficTestSupport.outcome(of: small).failure
        #expect(error is TransportError, "\(String(describing: error))")
        #expect(try await TrafficTestSupport.outcome(of: large).get() == Data("GET".utf8))
        let context = try #require(seen.values.first)
        #expect(seen.values.count == 1)
        #expect(context.id == nil && context.number == nil && context.maximumResponseSize == nil)
    }

    @Test func awaitedAndDirectCallersShareOneCall() async throws {
        let deduplicator = RequestDeduplicator()
        for leading in StackShape.allCases {
            // A leader of one shape, and a waiter of each.
            let upstream = HeldTransport()
            let transports = StackShape.allCases.map {
                $0.session(sending: upstream.transport).transport(with: .deduplicated(by: deduplicator))
            }
            let leader = Task { try await transports[leading == .awaited ? 0 : 1](self.request()).0 }
            try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 1 })
            let waiters = transports.map { transport in Task { try await transport(self.request()).0 } }
            try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == 3 })
            upstream.open()
            for caller in [leader] + waiters {
                #expect(try await TrafficTestSupport.outcome(of: caller).get() == Data("GET".utf8))
            }
            #expect(upstream.calls.count == 1, "led by the \(leading) shape")
        }
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test func overThePackagesSessionIdenticalCallsShareOneRequestAndCompleteOutsideAnyTask() async throws {
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            _ = gate.wait(timeout: .now() + 30)
            return .text("shared")
        }
        defer { server.stop() }
        defer { gate.signal() }
        let deduplicator = RequestDeduplicator()
        let send = makeTestNetworkSession().networking(with: .deduplicated(by: deduplicator), .validatingStatus())

        let witnesses = (0..<20).map { _ in TaskWitness() }
        let futures = witnesses.map { witness in
            send(Endpoint(baseURL: server.baseURL, path: "/products/7")).map { data in
                witness.record()
                return data
            }
        }
        #expect(deduplicator.waitingCount == 20)
        gate.signal()
        for future in futures {
            #expect(try await future.value(within: .seconds(30)) == Data("shared".utf8))
        }
        #expect(witnesses.allSatisfy { $0.ranOutsideTask == true })
        #expect(server.requestCount == 1)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test func directCallersCancelledAtRandomMomentsEachEndOnceAndTheOthersGetTheAnswer() async throws {
        let server = try LoopbackServer { request in
            let cacheable = request.path.hasSuffix("cached")
            return LoopbackServer.Response(headers: cacheable ? [.init("Cache-Control", "max-age=600")] : [], body: Data(request.path.utf8))
        }
        defer { server.stop() }
        let deduplicator = RequestDeduplicator()
        let send = NetworkSession(configuration: .default).networking(with: .deduplicated(by: deduplicator))
        let ended = Counter()
        var (started, cancelledInFlight) = (0, 0)
        for round in 0..<200 {
            // Three identical calls; the one that makes the call, one that waits, or both, leave
            // at a moment between 0 and 1 ms. Every other round the answer may come from the URL
            // cache.
            let path = "/\(round % 10)" + (round.isMultiple(of: 2) ? "-cached" : "")
            let futures = (0..<3).map { _ in send(Endpoint(baseURL: server.baseURL, path: path)) }
            started += futures.count
            for future in futures {
                future.observe { _ in ended.increment() }
            }
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...1_000) * 1_000)
            let leaving: Set<Int> = [[0], [1], [0, 1]][round % 3]
            for index in leaving {
                futures[index].cancel()
            }
            for (index, future) in futures.enumerated() {
                let failure = await future.result(within: .seconds(30)).failure
                if leaving.contains(index) {
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
        #expect(deduplicator.inFlightCount == 0)
        #expect(deduplicator.waitingCount == 0)
    }

    @Test func headerSelectionComparesNamesIgnoringCase() {
        #expect(HeaderSelection.all.includes("X-Anything"))
        #expect(!HeaderSelection.all(except: ["X-Request-ID"]).includes("x-request-id"))
        #expect(HeaderSelection.only(["accept"]).includes("ACCEPT"))
        #expect(!HeaderSelection.only(["accept"]).includes("Authorization"))
    }

    // MARK: - Several users

    @Test(arguments: StackShape.allCases)
    func belowAuthenticationASignInDuringAnotherUsersCallIsNeverMerged(_ shape: StackShape) async throws {
        // Even a selection that ignores Authorization never merges two users' requests.
        let upstream = HeldTransport()
        let store = CredentialStore(.bearer("ada"))
        let auth = Authenticator(store: store, allowedOrigins: [Origin(url: url)!])
        let transport = shape.session(sending: upstream.transport).transport(
            with: .authenticated(by: auth), .deduplicated(matching: .only(["Accept"])))

        let ada = Future { try await transport(self.request()) }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 1 })
        await store.store(.bearer("bob"))
        let bob = Future { try await transport(self.request()) }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 })
        upstream.open()

        _ = try await ada.value(within: .seconds(30))
        _ = try await bob.value(within: .seconds(30))
        #expect(upstream.calls.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer ada", "Bearer bob"])
    }

    @Test(arguments: StackShape.allCases)
    func aDeduplicatorSharedByTwoAccountsNeverMergesTheirRequests(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let shared = RequestDeduplicator(matching: .all(except: ["Authorization", "X-API-Key"]))
        let adaAuth = Authenticator(store: CredentialStore(.bearer("ada")), allowedOrigins: [Origin(url: url)!])
        let bobAuth = Authenticator(store: CredentialStore(.bearer("bob")), allowedOrigins: [Origin(url: url)!])
        let ada = shape.session(sending: upstream.transport).transport(with: .authenticated(by: adaAuth), .deduplicated(by: shared))
        let bob = shape.session(sending: upstream.transport).transport(with: .authenticated(by: bobAuth), .deduplicated(by: shared))
        let keyed = shape.session(sending: upstream.transport).transport(with: .deduplicated(by: shared))

        let calls = [
            Future { try await ada(self.request()) }, Future { try await bob(self.request()) },
            Future { try await ada(self.request()) },
            Future { try await keyed(self.request(headers: ["X-API-Key": "k1"])) },
            Future { try await keyed(self.request(headers: ["X-API-Key": "k2"])) },
        ]
        try #require(await TrafficTestSupport.waitUntil { shared.waitingCount == 5 })
        #expect(shared.inFlightCount == 4)  // ada's two requests share a call; nobody else does
        upstream.open()
        for call in calls {
            _ = try await call.value(within: .seconds(30))
        }
        #expect(upstream.calls.count == 4)
    }

    @Test(arguments: StackShape.allCases)
    func cookiesFromTheCookieStorageKeepUsersApart(_ shape: StackShape) async throws {
        let upstream = HeldTransport()
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let transport = shape.session(sending: upstream.transport).transport(
            with: .deduplicated(by: RequestDeduplicator(cookieStorage: storage)))
        func signIn(_ user: String) throws {
            storage.cookies?.forEach(storage.deleteCookie)
            storage.setCookie(try #require(HTTPCookie(properties: [.name: "s", .value: user, .domain: "shop.test", .path: "/"])))
        }

        try signIn("ada")
        let ada = Future { try await transport(self.request()) }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 1 })
        try signIn("bob")
        let bob = Future { try await transport(self.request()) }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 2 })
        upstream.open()
        _ = try await ada.value(within: .seconds(30))
        _ = try await bob.value(within: .seconds(30))
    }

    // MARK: - Helpers

    /// Starts one caller and waits until its call is upstream, then starts `count` identical
    /// callers and waits until they all wait for that call.
    private func startLeaderAndWaiters(
        _ count: Int,
        through transport: @escaping Transport,
        _ deduplicator: RequestDeduplicator,
        _ upstream: HeldTransport
    ) async throws -> (leader: Task<Data, any Error>, waiters: [Task<Data, any Error>]) {
        let leader = Task { try await transport(self.request()).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls.count == 1 })
        let waiters = (0..<count).map { _ in Task { try await transport(self.request()).0 } }
        try #require(await TrafficTestSupport.waitUntil { deduplicator.waitingCount == count + 1 })
        #expect(deduplicator.inFlightCount == 1)
        return (leader, waiters)
    }

    private func request(_ method: HTTPMethod = .get, body: String? = nil, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}

/// Waiting helpers shared by the Deduplicate, Throttle and Cache suites.
enum TrafficTestSupport {
    /// Polls `condition` until it holds, for at most 30 seconds of real time.
    static func waitUntil(_ condition: @Sendable () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while !condition() {
            guard clock.now < deadline, (try? await Task.sleep(for: .milliseconds(2))) != nil else {
                return condition()
            }
        }
        return true
    }

    /// The result of `task`, bounded by 30 seconds of real time.
    static func outcome<Value: Sendable>(of task: Task<Value, any Error>) async -> Result<Value, any Error> {
        await Future { try await task.value }.result(within: .seconds(30))
    }
}

/// A transport that records each request and holds it until ``open()`` is called, then
/// answers with the request's body (or its method when it has none), or fails with the given
/// error. A call cancelled while held throws `CancellationError` and is counted.
private final class HeldTransport: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [URLRequest] = []
    private var cancelledCount = 0
    private let gate = Promise<Void>()
    private let failure: (any Error)?
    /// Resolved when a held call is cancelled.
    let cancelled = Promise<Void>()

    init(failingWith failure: (any Error)? = nil) {
        self.failure = failure
        // Pinned, so that a cancelled call awaiting the gate does not cancel it for the others.
        gate.observe { _ in }
    }

    var calls: [URLRequest] { lock.withLock { recorded } }
    var cancellations: Int { lock.withLock { cancelledCount } }

    func open() {
        gate.resolve()
    }

    var transport: Transport {
        { [self] request in
            lock.withLock { recorded.append(request) }
            do {
                try await gate.value
            } catch {
                lock.withLock { cancelledCount += 1 }
                cancelled.resolve()
                throw error
            }
            if let failure {
                throw failure
            }
            let body = request.httpBody ?? Data((request.httpMethod ?? "GET").utf8)
            return (body, stubResponse(for: request))
        }
    }
}
