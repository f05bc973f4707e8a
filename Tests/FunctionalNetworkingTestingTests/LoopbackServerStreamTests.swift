import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

/// What a raw client read of a streamed response: the head, and each arrival with its time.
private struct StreamReading {
    var head = ""
    var arrivals: [(at: ContinuousClock.Instant, bytes: Data)] = []
    /// Whether the server closed the connection.
    var closed = false

    /// Every byte after the head, still chunk-framed.
    var framedBody: Data { arrivals.reduce(into: Data()) { $0.append($1.bytes) } }

    /// The body with the chunk framing removed, and whether the terminating chunk came.
    var body: (bytes: Data, complete: Bool) {
        var rest = framedBody[...]
        var bytes = Data()
        while let lineEnd = rest.firstRange(of: Data("\r\n".utf8)) {
            guard let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) else { break }
            if size == 0 { return (bytes, true) }
            let start = lineEnd.upperBound
            let end = min(rest.endIndex, start + size)
            bytes.append(rest[start..<end])
            guard end + 2 <= rest.endIndex else { break }
            rest = rest[(end + 2)...]
        }
        return (bytes, false)
    }
}

/// Sends a GET for `/` and reads until the server closes, or until `limit` body bytes arrived.
private func read(from server: LoopbackServer, limit: Int = .max, close: Bool = true) throws -> (StreamReading, RawConnection) {
    let connection = try RawConnection(port: server.port)
    try connection.send("GET / HTTP/1.1\r\nHost: x\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n")
    var reading = StreamReading()
    var pending = Data()
    while let next = try connection.readNext() {
        let now = ContinuousClock.now
        if reading.head.isEmpty {
            pending.append(next)
            guard let end = pending.firstRange(of: Data("\r\n\r\n".utf8)) else { continue }
            reading.head = String(decoding: pending[..<end.upperBound], as: UTF8.self)
            let rest = pending[end.upperBound...]
            if !rest.isEmpty { reading.arrivals.append((now, Data(rest))) }
        } else {
            reading.arrivals.append((now, next))
        }
        if reading.framedBody.count >= limit { return (reading, connection) }
    }
    reading.closed = true
    return (reading, connection)
}

@Suite("LoopbackServer streams")
struct LoopbackServerStreamTests {
    @Test("Chunks go out one by one, chunk-framed, with the pauses between them")
    func chunksWithPauses() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["one", "two", "three"], every: .milliseconds(150)))

        let (reading, _) = try read(from: server)

        #expect(reading.head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reading.head.contains("Transfer-Encoding: chunked\r\n"))
        #expect(!reading.head.contains("Content-Length"))
        #expect(reading.framedBody == Data("3\r\none\r\n3\r\ntwo\r\n5\r\nthree\r\n0\r\n\r\n".utf8))
        #expect(reading.body.complete)
        #expect(reading.arrivals.count >= 3)
        let first = try #require(reading.arrivals.first?.at)
        let last = try #require(reading.arrivals.last?.at)
        #expect(last - first >= .milliseconds(280))
        #expect(last - first < .seconds(60))
    }

    @Test("Events are written in the text/event-stream format, with its content type")
    func events() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .events([
                ServerSentEvent(data: "one", id: "1"),
                ServerSentEvent(event: "update", data: "a\nb", retry: .milliseconds(1500)),
                ServerSentEvent(event: "done", data: ""),
            ]))

        let (reading, _) = try read(from: server)

        #expect(reading.head.contains("Content-Type: text/event-stream\r\n"))
        #expect(reading.head.contains("Cache-Control: no-cache\r\n"))
        let text = String(decoding: reading.body.bytes, as: UTF8.self)
        #expect(text == "id: 1\ndata: one\n\nevent: update\nretry: 1500\ndata: a\ndata: b\n\nevent: done\ndata: \n\n")
        #expect(reading.body.complete)
    }

    @Test("A cut mid-event closes the connection without the terminating chunk")
    func cutMidEvent() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let second = ServerSentEvent(data: "second event")
        server.enqueue(.eventStream([.comment("hi"), .event(ServerSentEvent(data: "first")), .eventCutShort(second)]))

        let (reading, _) = try read(from: server, close: false)

        #expect(reading.closed)
        #expect(!reading.body.complete)
        #expect(String(decoding: reading.body.bytes, as: UTF8.self) == ": hi\ndata: first\n\ndata: seco")
    }

    @Test("A plain cut after bytes closes at once, and later parts are not sent")
    func cut() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("abc"), .cut, .text("never")]))

        let (reading, _) = try read(from: server, close: false)

        #expect(reading.closed)
        #expect(reading.framedBody == Data("3\r\nabc\r\n".utf8))
    }

    @Test("An endless line goes on until the client closes, and the server serves the next request")
    func endlessLine() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.endlessLine())
        server.enqueue(.text("next"))

        var (reading, connection) = try read(from: server, limit: 2 << 20)
        #expect(!reading.closed)
        let text = String(decoding: reading.body.bytes.prefix(16), as: UTF8.self)
        #expect(text == "data: xxxxxxxxxx")
        #expect(!reading.body.bytes.contains(UInt8(ascii: "\n")))
        connection = try RawConnection(port: server.port)  // Closes the first connection.
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().body == Data("next".utf8))
        reading = StreamReading()
    }

    @Test("Stopping the server cuts a pause short")
    func stopDuringPause() throws {
        let server = try LoopbackServer()
        server.enqueue(.stream([.text("a"), .pause(.seconds(120)), .text("b")]))
        let connection = try RawConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try connection.readNext()
        let start = ContinuousClock.now
        server.stop()
        while try connection.readNext() != nil {}
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @Test("A HEAD request to a streamed response gets the head only")
    func headRequest() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["one"], every: .zero))
        let connection = try RawConnection(port: server.port)
        try connection.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse(hasBody: false)
        #expect(response.status == 200)
        #expect(response.header("Transfer-Encoding") == nil)
    }

    @Test("The parser, fed from a raw connection, reads the server's events and drops the one cut short")
    func parserFedFromServer() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let sent = [
            ServerSentEvent(event: "greeting", data: "hello\nworld", id: "1", retry: .milliseconds(2_000)),
            ServerSentEvent(data: "plain", id: "1"),
            ServerSentEvent(data: "émoji 🌍", id: "2"),
        ]
        server.enqueue(
            .eventStream([
                .bytes(Data([0xEF, 0xBB, 0xBF])), .comment("keep-alive"), .event(sent[0]), .pause(.milliseconds(20)),
                .text("data: pla"), .text("in\r"), .text("\n\r\n"), .event(sent[2]), .eventCutShort(ServerSentEvent(data: "lost", id: "3")),
            ]))

        let (reading, _) = try read(from: server, close: false)
        var parser = ServerSentEventParser()
        var received: [ServerSentEvent] = []
        let body = reading.body.bytes
        for offset in stride(from: 0, to: body.count, by: 7) {
            received += try parser.parse(body[offset..<min(body.count, offset + 7)])
        }
        parser.finish()

        #expect(reading.closed)
        #expect(received == sent)
        #expect(parser.lastEventID == "2")  // The cut event never ended, so its `id:` does not count.
        #expect(parser.reconnectionTime == .milliseconds(2_000))
    }
}
