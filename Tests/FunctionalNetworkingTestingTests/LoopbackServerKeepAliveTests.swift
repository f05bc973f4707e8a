import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoopbackServerKeepAliveTests {
    @Test func sequentialRequestsFromOneSessionReuseOneConnection() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let session = HTTPClient.makeSession()
        defer { session.invalidateAndCancel() }

        for index in 0..<5 {
            _ = try await HTTPClient.get(server.url(for: "/\(index)"), with: session)
        }

        var recorded: [LoopbackServer.RecordedRequest] = []
        while let request = await server.takeRequest(timeout: .milliseconds(100)) { recorded.append(request) }
        #expect(recorded.count == 5)
        #expect(Set(recorded.map(\.connectionIndex)).count == 1)
        #expect(recorded.map(\.connectionSequenceNumber) == [0, 1, 2, 3, 4])
        #expect(server.connectionCount == 1)
    }

    @Test func closesTheConnectionWhenTheClientSendsConnectionClose() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("bye"))
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = try connection.readResponse()

        #expect(response.body.text == "bye")
        #expect(response.header("Connection") == "close")
        #expect(connection.isClosedByPeer(within: .seconds(30)))
    }

    @Test func closesTheConnectionWhenTheResponseSaysConnectionClose() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("bye").settingHeader("Connection", "close"))
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()

        #expect(response.header("Connection") == "close")
        #expect(connection.isClosedByPeer(within: .seconds(30)))
    }

    @Test func servesPipelinedRequestsInOrderOnOneConnection() async throws {
        let server = try LoopbackServer { request in .text(request.path) }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)

        try connection.send(
            "GET /one HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /three HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        let bodies = try (0..<3).map { _ in try connection.readResponse().body.text }

        #expect(bodies == ["/one", "/two", "/three"])
        #expect(server.connectionCount == 1)
        #expect(server.requestCount == 3)
    }

    @Test func closesHTTP10ConnectionsUnlessAskedToKeepThemAlive() throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let keepAlive = try RawConnection(port: server.port)
        let plain = try RawConnection(port: server.port)

        try keepAlive.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let kept = try keepAlive.readResponse()
        try keepAlive.send("GET / HTTP/1.0\r\n\r\n")
        let last = try keepAlive.readResponse()
        try plain.send("GET / HTTP/1.0\r\n\r\n")
        let closed = try plain.readResponse()

        #expect(kept.header("Connection") == "keep-alive")
        #expect(last.header("Connection") == "close")
        #expect(keepAlive.isClosedByPeer(within: .seconds(30)))
        #expect(closed.header("Connection") == "close")
        #expect(plain.isClosedByPeer(within: .seconds(30)))
    }
}
