import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endless sequence of 64 KiB chunks that counts how many were pulled from it.
private struct CountingChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let pulled: Counter

    struct AsyncIterator: AsyncIteratorProtocol {
        let pulled: Counter
        mutating func next() async -> Data? {
            pulled.increment()
            return Data(count: 64 << 10)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pulled: pulled) }
}

/// An endless body of `x` at about 200 KB/s, which only the reader's leaving ends: slow enough
/// that a reader who stopped reading would not fall 32 MiB behind (which ends a stream on Linux)
/// within any test's time.
private var endlessDrip: LoopbackServer.Response {
    .stream([.text("start\n"), .repeating(Data(repeating: UInt8(ascii: "x"), count: 1_024), every: .milliseconds(5))])
}

@Suite("ResponseBody: a body as it arrives")
struct ResponseBodyTests {
    // MARK: - Chunks

    @Test("A body made from data gives it as one chunk and ends")
    func fromData() async throws {
        var chunks: [Data] = []
        for try await chunk in ResponseBody(Data("hello".utf8)) { chunks.append(chunk) }
        #expect(chunks == [Data("hello".utf8)])
    }

    @Test("A body made from empty data gives no chunk")
    func fromEmptyData() async throws {
        var count = 0
        for try await _ in ResponseBody(Data()) { count += 1 }
        #expect(count == 0)
    }

    @Test("A ready body keeps its limits; the idle limit never ends it")
    func readyBodyLimits() async throws {
        let body = ResponseBody(Data("abc".utf8), limits: StreamLimits(idleTimeout: .nanoseconds(1), maximumSize: 10, maximumLineLength: 7))
        #expect(body.limits.maximumSize == 10)
        #expect(body.limits.maximumLineLength == 7)
        #expect(body.limits.idleTimeout == .nanoseconds(1))  // Kept, but nothing watches a ready body.
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await body.collect(upTo: 10) == Data("abc".utf8))
    }

    @Test("A ready body over its size limit fails with responseTooLarge")
    func readyBodyTooLarge() async throws {
        let body = ResponseBody(Data("abcdef".utf8), limits: StreamLimits(maximumSize: 5))
        await #expect(throws: TransportError.responseTooLarge(limit: 5, url: "(a ready body)")) {
            for try await _ in body {}
        }
    }

    @Test("A body made from a sequence gives its chunks in order, then ends")
    func fromSequence() async throws {
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        let body = ResponseBody(chunks)
        for text in ["one", "two", "three"] { continuation.yield(Data(text.utf8)) }
        continuation.finish()

        var received = Data()
        for try await chunk in body { received.append(chunk) }

        #expect(received == Data("onetwothree".utf8))
    }

    @Test("Each chunk a sequence gives while the reader waits reaches it as it is")
    func chunkByChunk() async throws {
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        var reading = ResponseBody(chunks).makeAsyncIterator()

        for text in ["one", "two", "three"] {
            continuation.yield(Data(text.utf8))
            #expect(try await reading.next() == Data(text.utf8))
        }
        continuation.finish()

        #expect(try await reading.next() == nil)
    }

    @Test("The sequence's error ends the body after the chunks before it")
    func sequenceError() async throws {
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let body = ResponseBody(chunks)
        continuation.yield(Data("abc".utf8))
        continuation.finish(throwing: URLError(.networkConnectionLost))

        var received = Data()
        await #expect(throws: URLError.self) {
            for try await chunk in body { received.append(chunk) }
        }
        #expect(received == Data("abc".utf8))
    }

    @Test("A body reads its sequence only as fast as it is read: 1 MiB ahead, and one chunk waiting for room")
    func readsOnlyAsFastAsItsReader() async throws {
        let pulled = Counter()
        let body = ResponseBody(CountingChunks(pulled: pulled))

        // 16 chunks of 64 KiB fill the 1 MiB the body holds; the 17th waits for room.
        try await waitUntil(within: .seconds(30), "17 chunks were pulled") { pulled.value >= 17 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(pulled.value == 17)

        var reading = body.makeAsyncIterator()
        let taken = try #require(try await reading.next())
        #expect(taken.count == 1 << 20)  // What waited, as one chunk.
        try await waitUntil(within: .seconds(30), "16 more chunks were pulled") { pulled.value >= 33 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(pulled.value == 33)
    }

    @Test("Dropping a body made from a sequence cancels the task that reads the sequence")
    func droppingStopsThePump() async throws {
        let terminated = Counter()
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.onTermination = { _ in terminated.increment() }
        do {
            let body = ResponseBody(chunks)
            continuation.yield(Data("abc".utf8))
            _ = body
        }

        try await waitUntil(within: .seconds(10), "the sequence was cancelled") { terminated.value == 1 }
    }

    @Test("A body is read once: a second iterator, even made before the first reads, gets alreadyConsumed")
    func readOnce() async throws {
        let body = ResponseBody(Data("abc".utf8))
        var first = body.makeAsyncIterator()
        var second = body.makeAsyncIterator()

        await #expect(throws: StreamError.alreadyConsumed) { try await second.next() }
        #expect(try await first.next() == Data("abc".utf8))
        await #expect(throws: StreamError.alreadyConsumed) { _ = try await body.collect(upTo: 10) }
        await #expect(throws: StreamError.alreadyConsumed) {
            for try await _ in body.lines {}
        }
    }

    // MARK: - collect(upTo:)

    @Test("collect(upTo:) returns the whole body within the limit, and exactly at it")
    func collectWithin() async throws {
        #expect(try await ResponseBody(Data("abcdef".utf8)).collect(upTo: 100) == Data("abcdef".utf8))
        #expect(try await ResponseBody(Data("abcdef".utf8)).collect(upTo: 6) == Data("abcdef".utf8))
        #expect(try await ResponseBody(Data()).collect(upTo: 0) == Data())
    }

    @Test("collect(upTo:) past the limit fails with responseTooLarge and cancels the sequence")
    func collectPast() async throws {
        let terminated = Counter()
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.onTermination = { _ in terminated.increment() }
        let body = ResponseBody(chunks)
        continuation.yield(Data("abc".utf8))
        continuation.yield(Data("def".utf8))

        await #expect(throws: TransportError.responseTooLarge(limit: 5, url: "(a sequence of chunks)")) {
            _ = try await body.collect(upTo: 5)
        }
        try await waitUntil(within: .seconds(10), "the sequence was cancelled") { terminated.value == 1 }
    }

    @Test("collect(upTo:) past the limit of a server's body cancels the transfer")
    func collectPastFromAServer() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let response = try await stream(Endpoint(baseURL: server.url(for: "/export")), through: makeTestNetworkSession().transport)

        await #expect(throws: TransportError.responseTooLarge(limit: 5_000, url: server.url(for: "/export").absoluteString)) {
            _ = try await response.body.collect(upTo: 5_000)
        }
        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
        withExtendedLifetime(response) {}
    }

    // MARK: - Stopping

    @Test("Dropping an unread body cancels the transfer: the server sees the connection close")
    func droppingUnreadCancels() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        do {
            let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: makeTestNetworkSession().transport)
            #expect(response.statusCode == 200)
        }
        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
        #expect(server.requestCount == 1)
    }

    @Test("Leaving a loop over the chunks cancels the transfer, though the response is still held")
    func leavingTheLoopCancels() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: makeTestNetworkSession().transport)

        for try await _ in response.body { break }

        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
        withExtendedLifetime(response) {}
    }

    @Test("Leaving a loop over the lines cancels the transfer, though the response is still held")
    func leavingALinesLoopCancels() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: makeTestNetworkSession().transport)

        for try await line in response.body.lines where line == "start" { break }

        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
        withExtendedLifetime(response) {}
    }

    @Test("Leaving a loop over the lines, where the response goes out of scope, cancels the transfer")
    func leavingALinesLoopAndTheResponseCancels() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)

        do {
            let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: makeTestNetworkSession().transport)
            for try await line in response.body.lines where line == "start" { break }
        }

        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
    }

    @Test("Cancelling the task that reads ends the reading with CancellationError and cancels the transfer")
    func cancellingTheReaderCancels() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: makeTestNetworkSession().transport)
        let started = Counter()
        let reading = Task {
            for try await _ in response.body { started.increment() }
        }

        try await waitUntil(within: .seconds(30), "bytes arrived") { started.value > 0 }
        reading.cancel()

        await #expect(throws: CancellationError.self) { try await reading.value }
        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
        withExtendedLifetime(response) {}
    }

    @Test("A cancelled reader stops at once even when chunks are always waiting")
    func cancelledReaderOfAFastBody() async throws {
        let pulled = Counter()
        let body = ResponseBody(CountingChunks(pulled: pulled))
        let afterCancellation = Counter()
        let reading = Task {
            for try await _ in body {
                if Task.isCancelled, afterCancellation.increment() >= 1_000 { return }
            }
        }

        try await waitUntil(within: .seconds(30), "chunks were pulled") { pulled.value > 100 }
        reading.cancel()

        await #expect(throws: CancellationError.self) { try await reading.value }
        #expect(afterCancellation.value <= 1)
    }
}
