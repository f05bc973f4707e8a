import Foundation
import FunctionalNetworking
import Testing

/// Parses `text` in one piece, then ends the stream.
private func events(in text: String, maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize) throws -> [ServerSentEvent] {
    try events(in: Array(text.utf8), maximumEventSize: maximumEventSize)
}

private func events(in bytes: [UInt8], maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize) throws -> [ServerSentEvent] {
    var parser = ServerSentEventParser(maximumEventSize: maximumEventSize)
    let events = try parser.parse(bytes)
    parser.finish()
    return events
}

/// Parses `bytes` cut at the given sizes, cycling through them.
private func events(in bytes: [UInt8], chunkSizes: [Int]) throws -> [ServerSentEvent] {
    var parser = ServerSentEventParser()
    var events: [ServerSentEvent] = []
    var offset = 0
    var turn = 0
    while offset < bytes.count {
        let size = max(1, chunkSizes[turn % chunkSizes.count])
        let end = min(bytes.count, offset + size)
        events += try parser.parse(bytes[offset..<end])
        offset = end
        turn += 1
    }
    parser.finish()
    return events
}

@Suite("ServerSentEventParser")
struct ServerSentEventParserTests {
    @Test("A blank line dispatches an event of type message with its data")
    func dispatchesOnBlankLine() throws {
        #expect(try events(in: "data: hello\n\n") == [ServerSentEvent(data: "hello")])
    }

    @Test("The event field sets the type; an empty one falls back to message")
    func eventType() throws {
        #expect(
            try events(in: "event: add\ndata: 1\n\nevent:\ndata: 2\n\n") == [
                ServerSentEvent(event: "add", data: "1"), ServerSentEvent(data: "2"),
            ])
    }

    @Test("The type does not carry over to the next event")
    func typeResets() throws {
        #expect(try events(in: "event: add\ndata: 1\n\ndata: 2\n\n").map(\.event) == ["add", "message"])
    }

    @Test("Multi-line data is joined with LF, and an empty data line adds an empty line")
    func multiLineData() throws {
        #expect(try events(in: "data: a\ndata\ndata: b\n\n").map(\.data) == ["a\n\nb"])
        #expect(try events(in: "data\n\n").map(\.data) == [""])
        #expect(try events(in: "data:\ndata:\n\n").map(\.data) == ["\n"])
    }

    @Test("Only one leading space after the colon is removed")
    func oneSpaceRemoved() throws {
        #expect(try events(in: "data:  two\n\ndata:none\n\ndata:\tx \n\n").map(\.data) == [" two", "none", "\tx "])
    }

    @Test("The value holds everything after the first colon")
    func laterColonsKept() throws {
        #expect(try events(in: "data: a: b:c\n\n").map(\.data) == ["a: b:c"])
    }

    @Test("A field without a colon has an empty value")
    func fieldWithoutColon() throws {
        #expect(try events(in: "data: x\nevent\n\n") == [ServerSentEvent(data: "x")])
    }

    @Test("Comment lines are ignored, even between data lines")
    func comments() throws {
        #expect(try events(in: ": hello\ndata: a\n:data: b\ndata: c\n\n:\n\n").map(\.data) == ["a\nc"])
    }

    @Test("Unknown fields and field names differing in case are ignored")
    func unknownFields() throws {
        #expect(try events(in: "foo: bar\nData: x\nDATA: y\ndata: z\n\n").map(\.data) == ["z"])
    }

    @Test("A blank line with an empty data buffer dispatches nothing and resets the type")
    func emptyDataDispatchesNothing() throws {
        #expect(try events(in: "event: add\n\n\n\ndata: 1\n\n") == [ServerSentEvent(data: "1")])
    }

    @Test("The last event ID persists across events until an id field changes it")
    func lastEventIDPersists() throws {
        #expect(try events(in: "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\nid\ndata: d\n\n").map(\.id) == ["1", "1", "2", nil])
    }

    @Test("An id in a block without data still sets the last event ID")
    func idWithoutData() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("id: 7\n\ndata: x\n\n".utf8)).map(\.id) == ["7"])
        #expect(parser.lastEventID == "7")
    }

    @Test("An id containing NUL is ignored")
    func idWithNULIgnored() throws {
        #expect(try events(in: "id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n").map(\.id) == ["1", "1"])
    }

    @Test("The last event ID and reconnection time survive finish, for the next connection")
    func finishKeepsIDAndRetry() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Array("id: 5\nretry: 300\ndata: a\n\ndata: half".utf8))
        parser.finish()
        #expect(parser.lastEventID == "5")
        #expect(parser.reconnectionTime == .milliseconds(300))
        #expect(try parser.parse(Array("\n\ndata: b\n\n".utf8)) == [ServerSentEvent(data: "b", id: "5")])
    }

    @Test("retry with ASCII digits sets the reconnection time; anything else is ignored")
    func retryDigitsOnly() throws {
        var parser = ServerSentEventParser()
        let parsed = try parser.parse(
            Array("retry: 1500\ndata: a\n\nretry: 2s\ndata: b\n\nretry: -1\nretry: 1.5\nretry\nretry: \ndata: c\n\n".utf8))
        #expect(parsed.map(\.retry) == [.milliseconds(1500), nil, nil])
        #expect(parser.reconnectionTime == .milliseconds(1500))
        _ = try parser.parse(Array("retry: 0\n\n".utf8))
        #expect(parser.reconnectionTime == .zero)
        _ = try parser.parse(Array("retry: 99999999999999999999999\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(Int64.max))
    }

    @Test("LF, CR and CRLF all end lines, mixed in one stream")
    func lineEnds() throws {
        let expected = [ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c"), ServerSentEvent(data: "d")]
        #expect(try events(in: "data: a\rdata: b\r\rdata: c\r\n\r\ndata: d\n\r\n") == expected)
    }

    @Test("CR followed by LF in the next chunk is one line end, not two")
    func splitCRLF() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("data: a\r".utf8)).isEmpty)
        #expect(try parser.parse(Array("\ndata: b\r".utf8)).isEmpty)
        #expect(try parser.parse(Array("\n\r".utf8)) == [ServerSentEvent(data: "a\nb")])
        #expect(try parser.parse(Array("\n".utf8)).isEmpty)
    }

    @Test("A leading BOM is stripped once; a second one is part of the first field name")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try events(in: bom + Array("data: a\n\n".utf8)).map(\.data) == ["a"])
        #expect(try events(in: bom + bom + Array("data: a\n\ndata: b\n\n".utf8)).map(\.data) == ["b"])
        #expect(try events(in: bom + Array("data: a\n\n".utf8), chunkSizes: [1]).map(\.data) == ["a"])
    }

    @Test("A BOM later in the stream is kept in the data")
    func laterBOMKept() throws {
        #expect(try events(in: "data: \u{FEFF}a\n\n").map(\.data) == ["\u{FEFF}a"])
    }

    @Test("A stream starting with a partial BOM keeps those bytes")
    func partialBOM() throws {
        #expect(try events(in: [0xEF, 0xBB] + Array("\ndata: a\n\n".utf8)).map(\.data) == ["a"])
        #expect(try events(in: Array("d".utf8) + Array("ata: a\n\n".utf8), chunkSizes: [1]).map(\.data) == ["a"])
    }

    @Test("UTF-8 is decoded across chunk boundaries, and invalid bytes become U+FFFD")
    func utf8() throws {
        let text = "data: héllo 🌍\n\n"
        #expect(try events(in: Array(text.utf8), chunkSizes: [1]).map(\.data) == ["héllo 🌍"])
        #expect(try events(in: Array("data: a".utf8) + [0xFF, 0xF0, 0x9F] + Array("\n\n".utf8)).map(\.data) == ["a\u{FFFD}\u{FFFD}"])
    }

    @Test("The last event without a trailing blank line is dropped at the end of the stream")
    func lastEventDropped() throws {
        #expect(try events(in: "data: a\n\ndata: b\n").map(\.data) == ["a"])
        #expect(try events(in: "data: a\n\ndata: b").map(\.data) == ["a"])
    }

    @Test("Byte-at-a-time and random chunking give the same events as one piece")
    func chunkingIndependent() throws {
        var stream = Array(":comment\r\nretry: 10\nevent: a\r\ndata: one\rdata: two\r\rid: 3\ndata:  x\n\ndata: é🌍\r\n\r\n".utf8)
        stream = [0xEF, 0xBB, 0xBF] + stream + stream + Array("data: tail".utf8)
        let whole = try events(in: stream)
        #expect(whole.count == 6)
        #expect(try events(in: stream, chunkSizes: [1]) == whole)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let sizes = (0..<8).map { _ in Int.random(in: 1...12, using: &generator) }
            let chunked = try events(in: stream, chunkSizes: sizes)
            #expect(chunked == whole, "chunk sizes \(sizes)")
        }
    }

    @Test("A line over the limit throws in words, and keeps throwing")
    func lineTooLong() throws {
        var parser = ServerSentEventParser(maximumEventSize: 16)
        #expect(try parser.parse(Array("data: 0123456789\n\n".utf8)).count == 1)
        #expect(throws: ServerSentEventError.lineTooLong(limit: 16)) {
            _ = try parser.parse(Array("data: 0123456789A".utf8))
        }
        #expect(throws: ServerSentEventError.lineTooLong(limit: 16)) { _ = try parser.parse(Array("\n\n".utf8)) }
        #expect(ServerSentEventError.lineTooLong(limit: 16).localizedDescription.contains("longer than the limit of 16 bytes"))
    }

    @Test("An endless line fed in chunks fails at the limit, never holding much more")
    func endlessLineBounded() throws {
        var parser = ServerSentEventParser(maximumEventSize: 1_000)
        var fed = 0
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64)
        #expect(throws: ServerSentEventError.lineTooLong(limit: 1_000)) {
            _ = try parser.parse(Array("data: ".utf8))
            while fed < 1_000_000 {
                _ = try parser.parse(chunk)
                fed += chunk.count
            }
        }
        #expect(fed < 1_000)
    }

    @Test("An event whose data lines together exceed the limit throws")
    func eventTooLarge() throws {
        let stream = String(repeating: "data: 0123456789\n", count: 20) + "\n"
        #expect(throws: ServerSentEventError.eventTooLarge(limit: 100)) { _ = try events(in: stream, maximumEventSize: 100) }
        #expect(try events(in: stream, maximumEventSize: 219).count == 1)
    }

    @Test("finish resets a failed parser for the next connection")
    func finishClearsFailure() throws {
        var parser = ServerSentEventParser(maximumEventSize: 4)
        #expect(throws: ServerSentEventError.self) { _ = try parser.parse(Array("data: long".utf8)) }
        parser.finish()
        #expect(try parser.parse(Array("data\n\n".utf8)) == [ServerSentEvent(data: "")])
    }

    @Test("Non-contiguous collections are parsed too")
    func anyCollection() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse("data: a\n\n".utf8) == [ServerSentEvent(data: "a")])
    }
}
