import Foundation
import FunctionalNetworking

#if canImport(EventSource)
import EventSource
#endif

/// The parsers of section 12 fed the same chunks, each returning the number of events it read.
public enum ParserRuns {
    /// The package's `ServerSentEventParser`, one `parse(_:)` per chunk.
    public static func functionalNetworking(_ chunks: [Data]) throws -> Int {
        var parser = ServerSentEventParser()
        var count = 0
        for chunk in chunks {
            let events = try parser.parse(chunk)
            count += events.count
            keep(events)
        }
        parser.finish()
        return count
    }

    #if canImport(EventSource)
    /// mattt/EventSource's `Parser` as its README feeds it: one `consume(_:)` per byte, then
    /// every complete event taken with `getNextEvent()` after each chunk.
    public static func eventSourceParser(_ chunks: [Data]) async -> Int {
        let parser = EventSource.Parser()
        var count = 0
        for chunk in chunks {
            for byte in chunk {
                await parser.consume(byte)
            }
            while let event = await parser.getNextEvent() {
                keep(event)
                count += 1
            }
        }
        await parser.finish()
        while let event = await parser.getNextEvent() {
            keep(event)
            count += 1
        }
        return count
    }

    /// mattt/EventSource's `events` over the chunks' bytes (as it reads `URLSession.AsyncBytes`).
    public static func eventSourceSequence(_ chunks: [Data]) async throws -> Int {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        for chunk in chunks {
            continuation.yield(chunk)
        }
        continuation.finish()
        var count = 0
        for try await event in AsyncBodyBytes(chunks: stream).events {
            keep(event)
            count += 1
        }
        return count
    }
    #endif

    /// The hand-written splitter of scenario a (``EventSplitter``): the floor.
    public static func splitter(_ chunks: [Data]) -> Int {
        var splitter = EventSplitter()
        var count = 0
        for chunk in chunks {
            count += splitter.split(chunk) { event in keep(event) }
        }
        return count
    }
}
