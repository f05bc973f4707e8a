import Foundation

extension ResponseBody {
    /// The body read as Server-Sent Events (`text/event-stream`), each as soon as the blank
    /// line that ends it has arrived.
    ///
    /// ```swift
    /// let response = try await stream(.priceUpdates, through: transport)
    /// for try await event in response.body.events {
    ///     print(event.event, event.data)
    /// }
    /// ```
    ///
    /// This reads one response: when it ends, the sequence ends, and an event left incomplete is
    /// dropped, as the standard says. To reconnect with `Last-Event-ID` when the connection
    /// drops, use ``eventStreaming(from:reconnection:limits:clock:)``. One line, or the data of
    /// one event, may hold at most the body's ``StreamLimits/maximumLineLength`` bytes; past
    /// that the stream fails with ``ServerSentEventError``.
    public var events: ServerSentEvents {
        ServerSentEvents(body: self)
    }
}

/// The Server-Sent Events of one ``ResponseBody``, as ``ResponseBody/events`` describes.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent
    /// Any error that ends the stream.
    public typealias Failure = any Error

    let body: ResponseBody

    /// Reads the events; the first reader claims the body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), parser: ServerSentEventParser(maximumEventSize: body.limits.maximumLineLength))
    }

    /// Reads the events of a body as they arrive.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseBody.AsyncIterator
        /// The parser, whose last event ID and reconnection time outlive the body.
        var parser: ServerSentEventParser
        private var ready: [ServerSentEvent] = []
        private var readyHead = 0
        private var ended = false
        /// The limit passed in the last chunk, thrown once the events before it are given.
        private var pendingFailure: ServerSentEventError?

        init(chunks: ResponseBody.AsyncIterator, parser: ServerSentEventParser) {
            self.chunks = chunks
            self.parser = parser
        }

        /// The next event, waiting for the blank line that ends it; `nil` once the body has
        /// ended.
        ///
        /// - Throws: ``ServerSentEventError`` past the line limit, or the error that ended the
        ///   stream.
        public mutating func next() async throws -> ServerSentEvent? {
            try await next(isolation: nil)
        }

        /// The next event, waiting for it in the caller's isolation; `nil` once the body has
        /// ended.
        ///
        /// - Parameter actor: The caller's actor, if any.
        /// - Throws: ``ServerSentEventError`` past the line limit, or the error that ended the
        ///   stream.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> ServerSentEvent? {
            while true {
                if readyHead < ready.count {
                    let event = ready[readyHead]
                    readyHead += 1
                    if readyHead == ready.count {
                        ready.removeAll(keepingCapacity: true)
                        readyHead = 0
                    }
                    return event
                }
                if let pendingFailure {
                    ended = true
                    self.pendingFailure = nil
                    throw pendingFailure
                }
                guard !ended else { return nil }
                do {
                    guard let chunk = try await chunks.next(isolation: actor) else {
                        parser.finish()
                        ended = true
                        return nil
                    }
                    let (events, failure) = parser.parseKeepingEvents(chunk)
                    ready = events
                    if let failure {
                        // The events before the one too large are given first.
                        pendingFailure = failure
                        chunks.handle.channel.fail(failure)
                    }
                } catch {
                    parser.finish()
                    ended = true
                    throw error
                }
            }
        }
    }
}
