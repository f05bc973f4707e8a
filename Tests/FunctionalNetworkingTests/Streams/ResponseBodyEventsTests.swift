import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A generator of the same numbers for the same seed (SplitMix64), so that a failing chunking
/// can be found again.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `bytes` cut into chunks of the given sizes (the rest in a last chunk).
private func chunks(of bytes: Data, sizes: [Int]) -> [Data] {
    var result: [Data] = []
    var start = bytes.startIndex
    for size in sizes where start < bytes.endIndex {
        let end = min(bytes.endIndex, start + size)
        result.append(bytes[start..<end])
        start = end
    }
    if start < bytes.endIndex { result.append(bytes[start...]) }
    return result
}

/// The events of a body made of `chunks`.
private func events(of chunks: [Data], limits: StreamLimits = .default) async throws -> [ServerSentEvent] {
    let source = AsyncStream<Data> { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
    }
    var events: [ServerSentEvent] = []
    for try await event in ResponseBody(source, limits: limits).events { events.append(event) }
    return events
}

@Suite("ResponseBody.events: a body as Server-Sent Events")
struct ResponseBodyEventsTests {
    static var sample: Data {
        Data(
            (": a comment\n"
                + "event: update\nid: 1\ndata: {\"price\": 42}\n\n"
                + "data: first line\r\ndata: second line\r\n\r\n"
                + "retry: 2500\ndata: with retry\n\n"
                + "id: 7\rdata: café 🎉\r\r"
                + "data:no space\n\n"
                + "event: done\ndata\n\n").utf8)
    }

    static let expected = [
        ServerSentEvent(event: "update", data: "{\"price\": 42}", id: "1"),
        ServerSentEvent(data: "first line\nsecond line", id: "1"),
        ServerSentEvent(data: "with retry", id: "1", retry: .milliseconds(2_500)),
        ServerSentEvent(data: "café 🎉", id: "7"),
        ServerSentEvent(data: "no space", id: "7"),
        ServerSentEvent(event: "done", data: "", id: "7"),
    ]

    @Test("The events of a body, in one piece or a byte at a time")
    func wholeAndByteAtATime() async throws {
        #expect(try await events(of: [Self.sample]) == Self.expected)
        #expect(try await events(of: chunks(of: Self.sample, sizes: Array(repeating: 1, count: Self.sample.count))) == Self.expected)
    }

    @Test("The same events whatever the chunking: 200 random chunkings")
    func randomChunkings() async throws {
        var generator = SeededGenerator(state: 26)
        for round in 0..<200 {
            let sizes = (0..<Self.sample.count).map { _ in Int.random(in: 1...24, using: &generator) }
            let cut = chunks(of: Self.sample, sizes: sizes)
            #expect(try await events(of: cut) == Self.expected, "round \(round), chunk sizes \(cut.map(\.count))")
        }
    }

    @Test("An event cut short by the end of the body is dropped")
    func cutShortDropped() async throws {
        #expect(try await events(of: [Data("data: one\n\ndata: two\n".utf8)]).map(\.data) == ["one"])
        #expect(try await events(of: [Data("data: one\n\ndata: tw".utf8)]).map(\.data) == ["one"])
        #expect(try await events(of: [Data("data: one\n\ndata: two".utf8), Data("\n".utf8)]).map(\.data) == ["one"])
    }

    @Test("An event cut short by a server closing the connection is dropped, and the stream fails")
    func cutByTheServer() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .eventStream([.event(ServerSentEvent(data: "one", id: "1")), .eventCutShort(ServerSentEvent(data: "two", id: "2"))]))
        let response = try await stream(Endpoint(baseURL: server.url(for: "/events")), through: makeTestNetworkSession().transport)

        var received: [ServerSentEvent] = []
        await #expect {
            for try await event in response.body.events { received.append(event) }
        } throws: { error in
            (error as? TransportError)?.urlError?.code == .networkConnectionLost
        }
        #expect(received == [ServerSentEvent(data: "one", id: "1")])
    }

    @Test("A body that is not an event stream gives no event")
    func noEvents() async throws {
        #expect(try await events(of: [Data("just text\nand more\n".utf8)]).isEmpty)
        #expect(try await events(of: []).isEmpty)
    }

    // MARK: - The limit

    @Test("A line of exactly the limit is read; one byte more fails with ServerSentEventError.lineTooLong")
    func lineLimit() async throws {
        let limits = StreamLimits(maximumLineLength: 16)
        #expect(try await events(of: [Data("data: 0123456789\n\n".utf8)], limits: limits).map(\.data) == ["0123456789"])
        await #expect(throws: ServerSentEventError.lineTooLong(limit: 16)) {
            _ = try await events(of: [Data("data: 01234567890\n\n".utf8)], limits: limits)
        }
        await #expect(throws: ServerSentEventError.lineTooLong(limit: 16)) {
            _ = try await events(of: chunks(of: Data("data: 01234567890\n\n".utf8), sizes: Array(repeating: 1, count: 20)), limits: limits)
        }
    }

    @Test("Data lines that together pass the limit fail with ServerSentEventError.eventTooLarge")
    func eventLimit() async throws {
        let limits = StreamLimits(maximumLineLength: 16)
        await #expect(throws: ServerSentEventError.eventTooLarge(limit: 16)) {
            _ = try await events(of: [Data("data: 0123456789\ndata: 0123456789\n\n".utf8)], limits: limits)
        }
    }

    @Test("The limit stops the sequence the body reads")
    func limitStopsTheSource() async throws {
        let terminated = Counter()
        let (source, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.onTermination = { _ in terminated.increment() }
        continuation.yield(Data("data: far too long for the limit\n\n".utf8))
        let body = ResponseBody(source, limits: StreamLimits(maximumLineLength: 16))

        await #expect(throws: ServerSentEventError.lineTooLong(limit: 16)) {
            for try await _ in body.events {}
        }
        try await waitUntil(within: .seconds(10), "the sequence was cancelled") { terminated.value == 1 }
    }

    @Test("An endless line from a server fails at the limit, and the connection is closed")
    func endlessLineFromAServer() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .eventStream([.text("data: "), .repeating(Data(repeating: UInt8(ascii: "x"), count: 8_192), every: .milliseconds(10))]))
        let response = try await stream(
            Endpoint(baseURL: server.url(for: "/events")), through: makeTestNetworkSession().transport,
            limits: StreamLimits(maximumLineLength: 64 << 10))

        await #expect(throws: ServerSentEventError.lineTooLong(limit: 64 << 10)) {
            for try await _ in response.body.events {}
        }
        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
        withExtendedLifetime(response) {}
    }

    // MARK: - Cut short where it counts

    @Test("An event past the limit fails only after the complete events that came with it in one chunk")
    func eventsBeforeTheLongOneInOneChunk() async throws {
        let body = ResponseBody(Data("data: ok\n\ndata: far too long for the limit\n\n".utf8), limits: StreamLimits(maximumLineLength: 16))
        var reading = body.events.makeAsyncIterator()
        #expect(try await reading.next()?.data == "ok")
        await #expect(throws: ServerSentEventError.lineTooLong(limit: 16)) { try await reading.next() }
    }
}
