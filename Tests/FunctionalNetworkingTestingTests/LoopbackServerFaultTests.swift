import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoopbackServerFaultTests {
    /// Runs a GET that must fail fast: with a URLError, and not by timing out.
    private func expectPromptFailure(
        _ server: LoopbackServer,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> URLError? {
        let session = HTTPClient.makeSession(timeout: 5)
        defer { session.invalidateAndCancel() }
        let error = await #expect(throws: URLError.self, sourceLocation: sourceLocation) {
            _ = try await HTTPClient.get(server.url(for: "/fault"), with: session)
        }
        #expect(error?.code != .timedOut, sourceLocation: sourceLocation)
        return error
    }

    @Test func closeAtStartGivesTheClientAnErrorWithoutRecordingARequest() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.fault(.closeAtStart))

        _ = try await expectPromptFailure(server)

        #expect(server.requestCount == 0)
        #expect(server.queuedResponseCount == 0)
    }

    @Test func closeAfterRequestGivesTheClientAnErrorAfterRecordingTheRequest() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.fault(.closeAfterRequest))

        _ = try await expectPromptFailure(server)

        #expect(await server.takeRequest()?.path == "/fault")
    }

    @Test func closeMidBodyGivesTheClientAnError() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text(String(repeating: "x", count: 10_000)).withFault(.closeMidBody))

        _ = try await expectPromptFailure(server)
    }

    @Test func closeMidBodySendsTheFullContentLengthAndHalfTheBody() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("0123456789").withFault(.closeMidBody))
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let received = try connection.readUntilClosed().text

        #expect(received.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(received.contains("Content-Length: 10\r\n"))
        #expect(received.hasSuffix("\r\n\r\n01234"))
    }

    @Test func stallIsMetByTheClientsShortTimeout() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.fault(.stall))
        let session = HTTPClient.makeSession(timeout: 1)
        defer { session.invalidateAndCancel() }
        let clock = ContinuousClock()

        let start = clock.now
        let error = await #expect(throws: URLError.self) {
            _ = try await HTTPClient.get(server.url(for: "/stall"), with: session)
        }
        let elapsed = clock.now - start

        #expect(error?.code == .timedOut)
        #expect(elapsed >= .milliseconds(900))
        #expect(elapsed < .seconds(120))  // bounded; not a performance claim
        // Waited for: on a loaded machine the server may read the request after the client gave up.
        #expect(await server.takeRequest(timeout: .seconds(30))?.path == "/stall")
        #expect(server.requestCount == 1)
    }

    @Test func stalledRequestStaysInFlightUntilTheServerStops() async throws {
        let server = try LoopbackServer()
        server.enqueue(.fault(.stall))
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(server.inFlightRequestCount == 1)
        #expect(!connection.isClosedByPeer(within: .milliseconds(100)))
        server.stop()

        #expect(connection.isClosedByPeer(within: .seconds(30)))
    }

    @Test func aFaultAffectsOnlyItsOwnResponse() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.fault(.closeAfterRequest))
        server.enqueue(.text("recovered"))

        _ = try await expectPromptFailure(server)
        let session = HTTPClient.makeSession()
        defer { session.invalidateAndCancel() }
        let result = try await HTTPClient.get(server.url(for: "/again"), with: session)

        #expect(result.body.text == "recovered")
    }

    @Test func closeAtStartOnAKeptAliveConnectionWaitsForTheNextRequest() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("first"))
        let connection = try RawConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try connection.readResponse()

        server.enqueue(.fault(.closeAtStart))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(server.queuedResponseCount == 1)  // The idle connection did not take it.
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")

        #expect(connection.isClosedByPeer(within: .seconds(30)))
        #expect(server.requestCount == 1)
    }
}
