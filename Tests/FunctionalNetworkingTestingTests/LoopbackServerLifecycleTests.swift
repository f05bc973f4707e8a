import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LoopbackServerLifecycleTests {
    @Test func aStartFailureSaysTheSameWordsInLocalizedDescription() {
        let error = LoopbackServerError.system(operation: "bind", code: EADDRINUSE)
        #expect(error.description.hasPrefix("LoopbackServer: bind failed: "))
        #expect((error as any Error).localizedDescription == error.description)
    }

    @Test func listensOnAnEphemeralLoopbackPort() throws {
        let server = try LoopbackServer()
        defer { server.stop() }

        #expect(server.port > 0)
        #expect(server.isRunning)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        #expect(server.url(for: "/a/b?c=d").absoluteString == "http://127.0.0.1:\(server.port)/a/b?c=d")
        #expect(server.url(for: "relative").absoluteString == "http://127.0.0.1:\(server.port)/relative")
    }

    @Test func twoServersListenOnDifferentPorts() throws {
        let first = try LoopbackServer()
        defer { first.stop() }
        let second = try LoopbackServer()
        defer { second.stop() }

        #expect(first.port != second.port)
    }

    @Test func stopFreesThePortSoANewConnectIsRefused() throws {
        let server = try LoopbackServer()
        let port = server.port
        #expect(RawConnection.connectError(port: port) == 0)

        server.stop()

        #expect(!server.isRunning)
        #expect(RawConnection.connectError(port: port) == ECONNREFUSED)
    }

    @Test func stopIsIdempotent() throws {
        let server = try LoopbackServer()
        let port = server.port

        server.stop()
        server.stop()
        server.stop()

        #expect(RawConnection.connectError(port: port) == ECONNREFUSED)
    }

    @Test func stopClosesIdleKeptAliveConnections() throws {
        let server = try LoopbackServer { _ in .text("ok") }
        let connection = try RawConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try connection.readResponse()

        server.stop()

        #expect(connection.isClosedByPeer(within: .seconds(30)))
    }

    @Test func stopWakesManyStalledConnectionsPromptly() async throws {
        let server = try LoopbackServer { _ in .fault(.stall) }
        let connections = try (0..<20).map { _ in try RawConnection(port: server.port) }
        for connection in connections {
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        for _ in connections { _ = try #require(await server.takeRequest(timeout: .seconds(30))) }
        let clock = ContinuousClock()

        let start = clock.now
        server.stop()

        #expect(clock.now - start < .seconds(120))  // bounded; not a performance claim
        #expect(connections.allSatisfy { $0.isClosedByPeer(within: .seconds(30)) })
    }

    @Test func stopWakesAPendingAsyncTakeRequest() async throws {
        let server = try LoopbackServer()
        let clock = ContinuousClock()
        let start = clock.now

        async let taken = server.takeRequest(timeout: .seconds(600))
        try await Task.sleep(for: .milliseconds(50))
        server.stop()

        #expect(await taken == nil)
        #expect(clock.now - start < .seconds(120))  // bounded; not a performance claim
    }

    @Test func recordedRequestsCanStillBeTakenAfterStop() throws {
        let server = try LoopbackServer()
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /kept HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try connection.readResponse()

        server.stop()

        #expect(server.takeRequest(timeout: .seconds(30))?.path == "/kept")
        #expect(server.takeRequest(timeout: .seconds(1)) == nil)
    }

    @Test func releasingTheServerStopsIt() throws {
        var server: LoopbackServer? = try LoopbackServer()
        let port = try #require(server?.port)
        #expect(RawConnection.connectError(port: port) == 0)

        server = nil

        #expect(RawConnection.connectError(port: port) == ECONNREFUSED)
    }

    @Test func startsServesAndStopsRepeatedly() throws {
        for _ in 0..<20 {
            let server = try LoopbackServer()
            let connection = try RawConnection(port: server.port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try connection.readResponse()
            server.stop()
        }
    }
}
