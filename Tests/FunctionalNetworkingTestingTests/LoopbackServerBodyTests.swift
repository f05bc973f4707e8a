import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoopbackServerBodyTests {
    @Test func readsAContentLengthBodyOfOneMegabyte() async throws {
        try await HTTPClient.withServer { server, session in
            let payload = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            var request = URLRequest(url: server.url(for: "/upload"))
            request.httpMethod = "PUT"
            request.httpBody = payload

            let result = try await HTTPClient.send(request, with: session)
            let recorded = try #require(await server.takeRequest())

            #expect(result.response.statusCode == 404)
            #expect(recorded.header("Content-Length") == "1048576")
            #expect(recorded.body == payload)
        }
    }

    @Test func readsAChunkedBodySentOverARawSocket() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("got it"))
        let connection = try RawConnection(port: server.port)

        try connection.send(
            "POST /chunks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n"
                + "1;ext=1\r\n \r\n"
                + "A\r\n0123456789\r\n"
                + "0\r\nX-Trailer: yes\r\n\r\n"
        )
        let response = try connection.readResponse()
        let recorded = try #require(await server.takeRequest())

        #expect(response.body.text == "got it")
        #expect(recorded.bodyText == "hello 0123456789")
        #expect(recorded.header("Transfer-Encoding") == "chunked")
    }

    @Test func readsAChunkedBodyArrivingInPieces() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)

        for piece in ["POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n", "\r\n3\r", "\nabc", "\r\n0\r\n", "\r\n"] {
            try connection.send(piece)
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = try connection.readResponse()
        let recorded = try #require(await server.takeRequest())

        #expect(recorded.bodyText == "abc")
    }

    @Test func readsAChunkedStreamedUploadFromURLSession() async throws {
        try await HTTPClient.withServer { server, session in
            let payload = Data(repeating: UInt8(ascii: "z"), count: 100_000)
            var request = URLRequest(url: server.url(for: "/stream"))
            request.httpMethod = "POST"
            request.httpBodyStream = InputStream(data: payload)

            _ = try await HTTPClient.send(request, with: session)
            let recorded = try #require(await server.takeRequest())

            // URLSession sends a body stream of unknown length chunked.
            #expect(recorded.header("Transfer-Encoding") == "chunked")
            #expect(recorded.header("Content-Length") == nil)
            #expect(recorded.body == payload)
        }
    }

    @Test func answersExpectContinueBeforeTheBodyIsSent() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("done"))
        let connection = try RawConnection(port: server.port)

        try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try connection.readInterimResponse()
        try connection.send("body")
        let response = try connection.readResponse()
        let recorded = try #require(await server.takeRequest())

        #expect(interim == "HTTP/1.1 100 Continue")
        #expect(response.body.text == "done")
        #expect(recorded.bodyText == "body")
    }
}
