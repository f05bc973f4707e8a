import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoopbackServerConcurrencyTests {
    init() {
        raiseOpenFileLimit(toAtLeast: 4_096)
    }

    @Test func answersTwoHundredConcurrentURLSessionRequests() async throws {
        let server = try LoopbackServer { request in
            .text(request.path).delayed(by: .milliseconds(100))
        }
        defer { server.stop() }
        let session = HTTPClient.makeSession(timeout: 10, maxConnectionsPerHost: 256)
        defer { session.invalidateAndCancel() }

        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<200 {
                group.addTask {
                    let result = try await HTTPClient.get(server.url(for: "/\(index)"), with: session)
                    return (index, result.body.text)
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }

        #expect(bodies.count == 200)
        #expect(bodies.allSatisfy { $0.value == "/\($0.key)" })
        #expect(server.requestCount == 200)
        #expect(server.peakConcurrentRequests > 1)
    }

    @Test func holdsTwoHundredRequestsInFlightAtOnce() throws {
        let gate = Gate(expected: 200)
        let server = try LoopbackServer { _ in
            gate.arriveAndWait(timeout: 60)
            return .text("released")
        }
        defer { server.stop() }

        let connections = try (0..<200).map { _ in try RawConnection(port: server.port) }
        for (index, connection) in connections.enumerated() {
            try connection.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        let responses = try connections.map { try $0.readResponse(timeout: .seconds(90)) }

        #expect(responses.allSatisfy { $0.body.text == "released" })
        #expect(server.peakConcurrentRequests == 200)
        #expect(server.connectionCount == 200)
        #expect(server.inFlightRequestCount == 0)
    }

    @Test func resettingThePeakRestartsItFromTheRequestsInFlight() async throws {
        // The first four answers wait until all four are in flight; later ones go at once.
        let gate = Gate(expected: 4)
        let server = try LoopbackServer { _ in
            gate.arriveAndWait(timeout: 30)
            return .text("ok")
        }
        defer { server.stop() }
        let session = HTTPClient.makeSession(maxConnectionsPerHost: 16)
        defer { session.invalidateAndCancel() }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try await HTTPClient.get(server.url(for: "/"), with: session) }
            }
            try await group.waitForAll()
        }
        #expect(server.peakConcurrentRequests == 4)
        server.resetPeakConcurrentRequests()
        #expect(server.peakConcurrentRequests == 0)
        _ = try await HTTPClient.get(server.url(for: "/"), with: session)

        #expect(server.peakConcurrentRequests == 1)
    }
}

/// Lets `expected` threads meet: each waits until all have arrived (or the timeout).
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private let expected: Int
    private var arrived = 0

    init(expected: Int) {
        self.expected = expected
    }

    func arriveAndWait(timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < expected, condition.wait(until: deadline) {}
    }
}
