import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("CancellationScope")
struct CancellationScopeTests {
    /// Answers `/stall` never, `/slow` once `slowGate` is signalled (or after 30 s), anything
    /// else at once, with the path.
    private func makeServer(slowGate: DispatchSemaphore = DispatchSemaphore(value: 0)) throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/stall": return .fault(.stall)
            case "/slow":
                _ = slowGate.wait(timeout: .now() + 30)
                return .text("/slow")
            default: return .text(request.path)
            }
        }
    }

    /// Waits (at most ten seconds) until `condition` holds.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "Timed out waiting")
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Sends `path` under `id`, bounded by 30 s of real time.
    private func send(
        _ path: String, id: UUID, through transport: @escaping Transport, on server: LoopbackServer
    ) -> Future<String> {
        let request = URLRequest(url: server.url(for: path))
        return Future {
            try await RequestContext.withID(id) {
                String(decoding: try await transport(request).0, as: UTF8.self)
            }
        }
    }

    @Test func cancellingOneIDLeavesTheOtherRequestsRunning() async throws {
        // `/slow` is held until the test has looked, so it cannot finish early on a slow machine.
        let slowGate = DispatchSemaphore(value: 0)
        let server = try makeServer(slowGate: slowGate)
        defer { server.stop() }
        defer { slowGate.signal() }
        let scope = CancellationScope()
        let transport = makeTestNetworkSession(timeout: 30).transport(with: .numbered(), .cancellable(in: scope))
        let (stalled, slow) = (UUID(), UUID())
        let cancelled = send("/stall", id: stalled, through: transport, on: server)
        let running = send("/slow", id: slow, through: transport, on: server)
        try await waitUntil { server.requestCount == 2 }
        #expect(Set(scope.inFlightIDs) == [stalled, slow])

        #expect(scope.cancel(id: stalled))
        let result = await cancelled.result(within: .seconds(30))
        #expect(result.failure is CancellationError)
        #expect(!scope.inFlightIDs.contains(stalled))
        #expect(scope.inFlightIDs == [slow])
        slowGate.signal()
        #expect(try await running.value(within: .seconds(30)) == "/slow")
        #expect(scope.inFlightIDs.isEmpty)
    }

    @Test func cancelAllCancelsEveryRequestInFlight() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let scope = CancellationScope()
        let transport = makeTestNetworkSession(timeout: 30).transport(with: .cancellable(in: scope))
        let requests = (0..<3).map { _ in send("/stall", id: UUID(), through: transport, on: server) }
        try await waitUntil { server.requestCount == 3 }
        #expect(scope.inFlightCount == 3)

        #expect(scope.cancelAll() == 3)
        for request in requests {
            #expect(await request.result(within: .seconds(30)).failure is CancellationError)
        }
        #expect(scope.inFlightIDs.isEmpty)
    }

    @Test func aRequestAfterCancelAllSucceeds() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let scope = CancellationScope()
        let transport = makeTestNetworkSession(timeout: 30).transport(with: .numbered(), .cancellable(in: scope))
        let stalled = send("/stall", id: UUID(), through: transport, on: server)
        try await waitUntil { server.requestCount == 1 }
        scope.cancelAll()
        #expect(await stalled.result(within: .seconds(30)).failure is CancellationError)

        let afterwards = send("/fresh", id: UUID(), through: transport, on: server)
        #expect(try await afterwards.value(within: .seconds(30)) == "/fresh")
    }

    @Test func theIDIsTheOneNumberedGave() async throws {
        let scope = CancellationScope()
        let base = stubTransport { request in
            (Data((RequestContext.current.id?.uuidString ?? "").utf8), stubResponse(for: request))
        }
        let seen = Composer { next in
            { request in
                let ids = scope.inFlightIDs.map(\.uuidString).joined()
                let (data, response) = try await next(request)
                return (Data((String(decoding: data, as: UTF8.self) + "=" + ids).utf8), response)
            }
        }
        let transport = NetworkSession(sending: base).transport(with: .numbered(), .cancellable(in: scope), seen)
        let (data, _) = try await transport(URLRequest(url: URL(string: "https://shop.test/")!))
        let parts = String(decoding: data, as: UTF8.self).split(separator: "=")
        #expect(parts.count == 2)
        #expect(parts.first == parts.last)
    }

    @Test func aURLErrorCancelledFromBelowBecomesCancellationError() async throws {
        let transport = NetworkSession(sending: stubTransport { _ in throw URLError(.cancelled) }).transport(
            with: .cancellable(in: CancellationScope()))
        await #expect(throws: CancellationError.self) {
            try await transport(URLRequest(url: URL(string: "https://shop.test/")!))
        }
    }

    @Test func otherErrorsAndValuesPassThrough() async throws {
        let scope = CancellationScope()
        let failing = NetworkSession(sending: stubTransport { _ in throw URLError(.timedOut) }).transport(with: .cancellable(in: scope))
        await #expect(throws: URLError.self) { try await failing(URLRequest(url: URL(string: "https://shop.test/")!)) }
        let working = NetworkSession(sending: stubTransport(data: Data("ok".utf8))).transport(with: .cancellable(in: scope))
        #expect(try await working(URLRequest(url: URL(string: "https://shop.test/")!)).0 == Data("ok".utf8))
        #expect(scope.inFlightCount == 0)
    }

    @Test func cancellingTheCallersTaskCancelsTheRequest() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let scope = CancellationScope()
        let transport = makeTestNetworkSession(timeout: 30).transport(with: .cancellable(in: scope))
        let stalled = send("/stall", id: UUID(), through: transport, on: server)
        try await waitUntil { server.requestCount == 1 }
        stalled.cancel()
        #expect(await stalled.result(within: .seconds(30)).failure is CancellationError)
        try await waitUntil { scope.inFlightCount == 0 }
    }

    @Test func cancellingAnUnknownIDDoesNothing() {
        #expect(!CancellationScope().cancel(id: UUID()))
        #expect(CancellationScope().cancelAll() == 0)
    }
}
