import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

// The samples of the `///` comments of Sources/FunctionalNetworkingTesting/LoopbackServer+Stream.swift,
// each inside a test as the comment shows it, against a LoopbackServer on 127.0.0.1.

/// Reads the whole (chunk-framed) answer to a GET of `/` until the server closes.
private func answer(from server: LoopbackServer) throws -> String {
    let connection = try RawConnection(port: server.port)
    try connection.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    return String(decoding: try connection.readUntilClosed(), as: UTF8.self)
}

@Suite("Doc-comment samples: LoopbackServer+Stream")
struct LoopbackServerStreamDocSamplesTests {
    @Test("Parts with a pause, and an event stream cut short")
    func streamPart() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("Hello, "), .pause(.milliseconds(50)), .text("world")]))
        server.enqueue(.eventStream([.event(ServerSentEvent(data: "first")), .eventCutShort(ServerSentEvent(data: "second"))]))
        #expect(try answer(from: server).hasSuffix("7\r\nHello, \r\n5\r\nworld\r\n0\r\n\r\n"))
        #expect(try answer(from: server).hasSuffix("d\r\ndata: first\n\n\r\n7\r\ndata: s\r\n"))
    }

    @Test("Chunks every interval")
    func chunks() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["one", "two", "three"], every: .milliseconds(100)))
        #expect(try answer(from: server).hasSuffix("3\r\none\r\n3\r\ntwo\r\n5\r\nthree\r\n0\r\n\r\n"))
    }

    @Test("An event stream of parts")
    func eventStream() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.eventStream([.comment("hi"), .event(ServerSentEvent(data: "one")), .cut]))
        #expect(try answer(from: server).hasSuffix("5\r\n: hi\n\r\nb\r\ndata: one\n\n\r\n"))
    }

    @Test("Events every interval")
    func events() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .events([ServerSentEvent(data: "one", id: "1"), ServerSentEvent(event: "done", data: "")], every: .milliseconds(20)))
        #expect(try answer(from: server).hasSuffix("\r\nid: 1\ndata: one\n\n\r\n14\r\nevent: done\ndata: \n\n\r\n0\r\n\r\n"))
    }

    @Test("An endless line")
    func endlessLine() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.endlessLine())
        let connection = try RawConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        var received = Data()
        while received.count < 100_000, let next = try connection.readNext() { received.append(next) }
        #expect(String(decoding: received, as: UTF8.self).contains("\r\n6\r\ndata: \r\n1000\r\nxxxx"))
    }
}
