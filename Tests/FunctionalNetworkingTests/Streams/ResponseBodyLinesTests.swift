import Foundation
import Testing

@testable import FunctionalNetworking

/// The lines of `bytes` cut into `chunks` at the given sizes (the rest in a last chunk), read
/// through ``LineSplitter`` exactly as the chunks come.
private func split(_ bytes: [UInt8], at sizes: [Int], limit: Int = 1 << 20) throws -> [String] {
    var splitter = LineSplitter(limit: limit)
    var lines: [String] = []
    var start = 0
    for size in sizes + [bytes.count] {
        let end = min(bytes.count, start + size)
        splitter.append(Data(bytes[start..<end]))
        while let line = splitter.nextLine() { lines.append(line) }
        if let failure = splitter.failure { throw failure }
        start = end
    }
    splitter.finish()
    while let line = splitter.nextLine() { lines.append(line) }
    return lines
}

/// The lines of a body made of `chunks`, read through ``ResponseBody/lines``.
private func lines(of chunks: [[UInt8]], limit: Int = 1 << 20) async throws -> [String] {
    let body = ResponseBody(chunks.map { Data($0) }.async, limits: StreamLimits(maximumLineLength: limit))
    var lines: [String] = []
    for try await line in body.lines { lines.append(line) }
    return lines
}

/// Bytes of text.
private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

extension Array where Element == Data {
    /// The chunks as an async sequence.
    fileprivate var async: AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in self { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}

@Suite("ResponseBody.lines: a body as lines of text")
struct ResponseBodyLinesTests {
    /// Inputs and their lines, whatever the chunking.
    static let cases: [(text: [UInt8], lines: [String])] = [
        (bytes("one\ntwo\n"), ["one", "two"]),  // LF
        (bytes("one\r\ntwo\r\n"), ["one", "two"]),  // CRLF
        (bytes("one\rtwo\r"), ["one", "two"]),  // CR
        (bytes("one\r\ntwo\nthree\rfour"), ["one", "two", "three", "four"]),  // mixed, last line without an end
        (bytes("\n\nthree\n\n"), ["", "", "three", ""]),  // empty lines
        (bytes("a\r\rb\n\rc"), ["a", "", "b", "", "c"]),  // CR CR is two ends; LF CR too
        (bytes("a\n\r\nb"), ["a", "", "b"]),
        (bytes("last"), ["last"]),
        (bytes("last\r"), ["last"]),
        (bytes(""), []),
        (bytes("\n"), [""]),
        (bytes("café, 日本, 🎉\n🎉"), ["café, 日本, 🎉", "🎉"]),  // UTF-8 of 2, 3 and 4 bytes
        ([0x61, 0xFF, 0x62, 0x0A, 0xC3, 0x28, 0x0A, 0x63, 0xE2, 0x82], ["a\u{FFFD}b", "\u{FFFD}(", "c\u{FFFD}"]),  // invalid UTF-8
    ]

    @Test("Lines end with LF, CRLF or CR, whole or a byte at a time", arguments: 0..<13)
    func wholeAndByteAtATime(case index: Int) throws {
        let (text, expected) = Self.cases[index]
        #expect(try split(text, at: []) == expected)
        #expect(try split(text, at: Array(repeating: 1, count: text.count)) == expected)
    }

    @Test("Lines are the same wherever the body is cut in two", arguments: 0..<13)
    func everyCut(case index: Int) throws {
        let (text, expected) = Self.cases[index]
        for cut in 0...text.count {
            #expect(try split(text, at: [cut]) == expected, "cut at \(cut)")
        }
    }

    @Test("A CR ending one chunk and the LF starting the next end one line, not two")
    func crThenLFInTheNextChunk() throws {
        #expect(try split(bytes("one\r\ntwo\r\n"), at: [4, 6]) == ["one", "two"])
        #expect(try split(bytes("one\r\n"), at: [4]) == ["one"])
    }

    @Test("A CR ending one chunk and anything else starting the next: the CR alone ended the line")
    func crThenOtherInTheNextChunk() throws {
        #expect(try split(bytes("one\rtwo"), at: [4]) == ["one", "two"])
        #expect(try split(bytes("one\r\rtwo"), at: [4]) == ["one", "", "two"])
    }

    @Test("A character cut between chunks is whole in its line", arguments: [1, 2, 3])
    func utf8AcrossChunks(cut: Int) throws {
        let emoji = bytes("🎉")  // 4 bytes
        #expect(try split(bytes("a") + emoji + bytes("b\n"), at: [1 + cut]) == ["a🎉b"])
        #expect(try split(bytes("é\n"), at: [1]) == ["é"])
    }

    @Test("Through a body: the lines of chunks are the lines of the whole", arguments: 0..<13)
    func throughABody(case index: Int) async throws {
        let (text, expected) = Self.cases[index]
        #expect(try await lines(of: [text]) == expected)
        #expect(try await lines(of: text.map { [$0] }) == expected)
    }

    @Test("Through a body: a CR at the end of one chunk and an LF at the start of the next")
    func crLFThroughABody() async throws {
        #expect(try await lines(of: [bytes("one\r"), bytes("\ntwo\r"), bytes("\n")]) == ["one", "two"])
    }

    @Test("Through a body: a line that is an invalid UTF-8 sequence alone becomes U+FFFD")
    func invalidThroughABody() async throws {
        #expect(try await lines(of: [[0xFF], [0x0A], [0xFE, 0x0A]]) == ["\u{FFFD}", "\u{FFFD}"])
    }

    // MARK: - The line limit

    @Test("A line of exactly the limit is read; one byte more fails with lineTooLong")
    func limitAtAndPast() throws {
        #expect(try split(bytes("12345\n"), at: [], limit: 5) == ["12345"])
        #expect(try split(bytes("12345\r\n"), at: [], limit: 5) == ["12345"])  // The end is not part of the line.
        #expect(throws: StreamError.lineTooLong(limit: 5)) { try split(bytes("123456\n"), at: [], limit: 5) }
    }

    @Test("The limit holds across chunks")
    func limitAcrossChunks() throws {
        #expect(try split(bytes("12345\n12345\n"), at: [3, 4, 1], limit: 5) == ["12345", "12345"])
        #expect(try split(bytes("12345\n12345\n"), at: Array(repeating: 1, count: 12), limit: 5) == ["12345", "12345"])
        #expect(throws: StreamError.lineTooLong(limit: 5)) { try split(bytes("123456\n"), at: [3], limit: 5) }
        #expect(throws: StreamError.lineTooLong(limit: 5)) { try split(bytes("123456\n"), at: Array(repeating: 1, count: 7), limit: 5) }
    }

    @Test("A last line without an end is held to the limit too")
    func limitOnTheLastLine() throws {
        #expect(try split(bytes("ab\n12345"), at: [], limit: 5) == ["ab", "12345"])
        #expect(throws: StreamError.lineTooLong(limit: 5)) { try split(bytes("ab\n123456"), at: [], limit: 5) }
    }

    @Test("Through a body: exactly the limit is read, one past fails with lineTooLong")
    func limitThroughABody() async throws {
        #expect(try await lines(of: [bytes("1234"), bytes("5\n")], limit: 5) == ["12345"])
        await #expect(throws: StreamError.lineTooLong(limit: 5)) {
            _ = try await lines(of: [bytes("1234"), bytes("56\n")], limit: 5)
        }
    }

    @Test("Through a body: the lines before a line too long are read, then the stream is stopped")
    func linesBeforeTheLongOne() async throws {
        let terminated = Counter()
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.onTermination = { _ in terminated.increment() }
        continuation.yield(Data("ok\n".utf8))
        continuation.yield(Data("far too long for the limit".utf8))
        let body = ResponseBody(chunks, limits: StreamLimits(maximumLineLength: 8))

        var reading = body.lines.makeAsyncIterator()
        #expect(try await reading.next() == "ok")
        await #expect(throws: StreamError.lineTooLong(limit: 8)) { try await reading.next() }
        try await waitUntil(within: .seconds(10), "the sequence was cancelled") { terminated.value == 1 }
        await #expect(throws: StreamError.lineTooLong(limit: 8)) { try await reading.next() }
    }

    // MARK: - Cut short where it counts

    @Test("A line too long fails only after the complete lines that came with it in one chunk")
    func completeLinesBeforeTheLongOneInOneChunk() async throws {
        let body = ResponseBody(Data("ok\nfar too long for the limit".utf8), limits: StreamLimits(maximumLineLength: 8))
        var reading = body.lines.makeAsyncIterator()
        #expect(try await reading.next() == "ok")
        await #expect(throws: StreamError.lineTooLong(limit: 8)) { try await reading.next() }
    }

    @Test("An empty chunk between a CR and its LF changes nothing")
    func emptyChunkBetweenCRAndLF() async throws {
        #expect(try split(bytes("a\r\nb"), at: [2, 0]) == ["a", "b"])
        var reading = ResponseBody([Data("a\r".utf8), Data(), Data("\nb".utf8)].async).lines.makeAsyncIterator()
        var lines: [String] = []
        while let line = try await reading.next() { lines.append(line) }
        #expect(lines == ["a", "b"])
    }
}
