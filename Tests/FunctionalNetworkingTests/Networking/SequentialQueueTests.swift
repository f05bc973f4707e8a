import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("SequentialQueue")
struct SequentialQueueTests {
    @Test func aFailureSaysItsWordsEverywhereAndDumpShowsNoBody() async throws {
        let networking: Networking = { endpoint in
            endpoint.pathComponents == ["token"]
                ? Future(value: Data(#"{"access_token":"acc-S3CRET"}"#.utf8)) : Future(error: HTTPStatusError(status: 500))
        }
        let queue = SequentialQueue(networking: networking)
        let base = URL(string: "https://shop.test")!
        let error = await #expect(throws: SequentialQueue.Failure.self) {
            _ = try await queue.run([Endpoint(baseURL: base, path: "/token"), Endpoint(baseURL: base, path: "/items")]).value
        }
        let failure = try #require(error)
        #expect((failure as any Error).localizedDescription == failure.description)
        #expect(String(reflecting: failure) == failure.description)
        var dumped = ""
        dump(failure, to: &dumped)
        #expect(!dumped.contains("S3CRET"))
        #expect(dumped.contains("1 bodies"))
    }

    /// Answers each path with itself after a short pause; `/missing` is a 404, `/stall` never
    /// answers.
    private func makeServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/missing": .status(404)
            case "/stall": .fault(.stall)
            default: .text(request.path).delayed(by: .milliseconds(30))
            }
        }
    }

    private func endpoints(_ paths: [String], on server: LoopbackServer) -> [Endpoint] {
        paths.map { Endpoint(baseURL: server.baseURL, path: $0) }
    }

    private func texts(_ bodies: [Data]) -> [String] {
        bodies.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func endpointsRunInOrderOneAtATime() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let queue = SequentialQueue(networking: networking(from: makeTestSession().transport))
        let paths = ["/1", "/2", "/3", "/4", "/5"]
        let bodies = try await queue.run(endpoints(paths, on: server)).value(within: .seconds(30))
        #expect(texts(bodies) == paths)
        #expect(server.peakConcurrentRequests == 1)
        var received: [String] = []
        for _ in paths {
            received.append(try #require(await server.takeRequest(timeout: .seconds(30))).path)
        }
        #expect(received == paths)
        #expect(server.requestCount == paths.count)
    }

    @Test func stoppingAtTheFirstFailureDoesNotSendTheRest() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let queue = SequentialQueue(networking: networking(from: makeTestSession().transport))
        let result = await queue.run(endpoints(["/1", "/missing", "/3"], on: server)).result(within: .seconds(30))
        let failure = try #require(result.failure as? SequentialQueue.Failure)
        #expect(failure.index == 1)
        #expect(texts(failure.completed) == ["/1"])
        #expect((failure.underlying as? HTTPStatusError)?.status == 404)
        #expect(server.requestCount == 2)
    }

    @Test func collectingSendsEveryEndpointAndKeepsEachResult() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let queue = SequentialQueue(networking: networking(from: makeTestSession().transport))
        let results = try await queue.runCollectingResults(endpoints(["/1", "/missing", "/3"], on: server))
            .value(within: .seconds(30))
        #expect(results.count == 3)
        #expect(results[0].success.map { String(decoding: $0, as: UTF8.self) } == "/1")
        #expect((results[1].failure as? HTTPStatusError)?.status == 404)
        #expect(results[2].success.map { String(decoding: $0, as: UTF8.self) } == "/3")
        #expect(server.requestCount == 3)
        #expect(server.peakConcurrentRequests == 1)
    }

    @Test func anEmptyListGivesNothing() async throws {
        let queue = SequentialQueue(networking: { _ in Future(error: URLError(.badURL)) })
        #expect(try await queue.run([]).value(within: .seconds(30)).isEmpty)
        #expect(try await queue.runCollectingResults([]).value(within: .seconds(30)).isEmpty)
    }

    @Test func cancellingTheQueueCancelsTheRequestInFlightAndSendsNoMore() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let queue = SequentialQueue(networking: networking(from: makeTestSession(timeout: 30).transport))
        let running = queue.run(endpoints(["/1", "/stall", "/3"], on: server))
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        let stalled = try #require(await server.takeRequest(timeout: .seconds(30)), "The queue never reached /stall")
        #expect(stalled.path == "/stall")
        running.cancel()
        #expect(await running.result(within: .seconds(30)).failure is CancellationError)
        try await Task.sleep(for: .milliseconds(200))
        #expect(server.requestCount == 2)
    }
}
