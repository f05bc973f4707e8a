import Foundation
import FunctionalNetworkingTesting
import Testing

@Suite struct LoopbackServerMalformedInputTests {
    /// Sends `bytes` on a fresh connection and returns the answer, expecting a close after it.
    private func answer(
        to bytes: String,
        on server: LoopbackServer,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RawConnection.Response {
        let connection = try RawConnection(port: server.port)
        try connection.send(bytes)
        let response = try connection.readResponse()
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(connection.isClosedByPeer(within: .seconds(30)), sourceLocation: sourceLocation)
        return response
    }

    @Test(arguments: [
        EscapedText("GARBAGE\r\n\r\n"),
        EscapedText("GET /\r\n\r\n"),
        EscapedText("GET / HTTP/1.1 extra\r\n\r\n"),
        EscapedText("GET  / HTTP/1.1\r\n\r\n"),
        EscapedText("G(T / HTTP/1.1\r\n\r\n"),
        EscapedText("GET / HTTP/x.y\r\n\r\n"),
        EscapedText("GET / HTTP/1.1\r\nNo colon here\r\n\r\n"),
        EscapedText("GET / HTTP/1.1\r\nBad Name: value\r\n\r\n"),
        EscapedText("GET / HTTP/1.1\r\nHost: x\r\n folded: continuation\r\n\r\n"),
        EscapedText("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n"),
        EscapedText("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
        EscapedText("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"),
        EscapedText("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
        EscapedText("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n"),
        EscapedText("\u{1}\u{2}\u{3}\r\n\r\n"),
    ])
    func answersUnparsableRequestsWith400AndCloses(request: EscapedText) throws {
        let server = try LoopbackServer { _ in .text("should not be reached") }
        defer { server.stop() }

        let response = try answer(to: request.text, on: server)

        #expect(response.status == 400)
        #expect(response.body.text.hasPrefix("Bad request"))
        #expect(server.requestCount == 0)
    }

    @Test func answersOversizedHeadersWith431AndCloses() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let huge = String(repeating: "a", count: 70 * 1024)

        let response = try answer(to: "GET / HTTP/1.1\r\nX-Huge: \(huge)\r\n\r\n", on: server)

        #expect(response.status == 431)
    }

    @Test func answersAnEndlessHeaderSectionWith431() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\n")
        for index in 0..<2_000 {
            guard (try? connection.send("X-Header-\(index): \(String(repeating: "v", count: 40))\r\n")) != nil else { break }
        }
        let response = try connection.readResponse()

        #expect(response.status == 431)
    }

    @Test func answersUnsupportedTransferEncodingWith501() throws {
        let server = try LoopbackServer()
        defer { server.stop() }

        let response = try answer(to: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", on: server)

        #expect(response.status == 501)
    }

    @Test func answersUnsupportedHTTPVersionWith505() throws {
        let server = try LoopbackServer()
        defer { server.stop() }

        let response = try answer(to: "GET / HTTP/2.0\r\n\r\n", on: server)

        #expect(response.status == 505)
    }

    @Test func keepsServingAfterAClientVanishesMidRequest() async throws {
        let server = try LoopbackServer { _ in .text("fine") }
        defer { server.stop() }
        do {
            let quitter = try RawConnection(port: server.port)
            try quitter.send("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly part")
        }
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()

        #expect(response.body.text == "fine")
        #expect(server.requestCount == 1)
    }

    @Test func survivesRandomGarbageAndKeepsServing() throws {
        let server = try LoopbackServer { _ in .text("still here") }
        defer { server.stop() }
        var generator = SplitMix64(seed: 0x5EED)
        let fragments = ["GET / HTTP/1.1\r\n", "Content-Length: 5\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", ":", " ", "\n"]

        for _ in 0..<40 {
            var garbage = Data()
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                if Bool.random(using: &generator) {
                    garbage += Data(fragments.randomElement(using: &generator)!.utf8)
                } else {
                    garbage += Data(
                        (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
                }
            }
            let connection = try RawConnection(port: server.port)
            try? connection.send(garbage)
        }
        let connection = try RawConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")

        #expect(try connection.readResponse().body.text == "still here")
    }

    @Test func toleratesBareLineFeedsAndLeadingBlankLines() async throws {
        let server = try LoopbackServer { request in .text(request.path) }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)

        try connection.send("\r\n\nGET /lf HTTP/1.1\nHost: x\n\n")
        let response = try connection.readResponse()

        #expect(response.body.text == "/lf")
    }
}

/// A small deterministic random number generator, so garbage is reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
