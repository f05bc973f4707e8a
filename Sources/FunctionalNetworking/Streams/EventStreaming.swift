import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An event-streaming function: an endpoint in, its Server-Sent Events out, as they arrive.
///
/// It composes the way a ``Networking`` function does: ``eventStreaming(from:reconnection:limits:clock:)``
/// makes one from a transport, and a service that takes one as a closure is tested with a ready
/// stream, no server:
///
/// ```swift
/// final class PriceTicker {
///     private let events: EventStreaming
///     init(events: @escaping EventStreaming) {
///         self.events = events
///     }
/// }
///
/// let ticker = PriceTicker(events: { _ in
///     AsyncThrowingStream { continuation in
///         continuation.yield(ServerSentEvent(data: "{\"price\": 42}"))
///         continuation.finish()
///     }
/// })
/// ```
public typealias EventStreaming = @Sendable (Endpoint) -> AsyncThrowingStream<ServerSentEvent, any Error>

/// Turns a ``Transport`` (a composed one, say) into an ``EventStreaming`` function: each call
/// opens the endpoint's event stream when its sequence is first read, and keeps it open.
///
/// ```swift
/// let events = eventStreaming(from: session.transport(with: .authenticated(by: auth), .logged(to: log)))
/// for try await event in events(.priceUpdates) {
///     print(event.event, event.data)
/// }
/// ```
///
/// It follows the WHATWG HTML standard's `EventSource`:
/// - The request asks for `text/event-stream`, with `Cache-Control: no-cache`, and, once the
///   stream has given an event ID, with that ID as `Last-Event-ID`.
/// - A 200 response of type `text/event-stream` is read as events (see ``ResponseBody/events``).
///   A 204 ends the sequence: the server has nothing more to say. Any other 2xx, or another
///   type, fails with ``StreamError/notEventStream(contentType:url:)``; any other status with
///   ``HTTPStatusError``; neither is retried.
/// - When the connection ends, cleanly or not, or stays silent past the idle limit, the
///   sequence reconnects after the server's `retry:` time (or `reconnection`'s delay) on
///   `clock`, and goes on from the last event ID: an event the server sends again is the
///   server's to avoid. An event cut short by the connection's end is dropped.
///
/// Each connection goes through the transport's composers as a streamed call
/// (``stream(_:through:limits:)``): a credential refresh on a 401, a retry before the first
/// byte, logging and metrics of each connection. Stopping the reading (leaving the loop,
/// cancelling the task) closes the connection at once, and no reconnection follows.
///
/// - Parameters:
///   - transport: A transport from a ``NetworkSession``, composed or not.
///   - reconnection: When and how often to reconnect; ``EventStreamReconnection/default``
///     unless you say.
///   - limits: Each connection's limits; ``StreamLimits/default`` unless you say (a line, or
///     the data of one event, is limited by ``StreamLimits/maximumLineLength``).
///   - clock: The clock the reconnection waits on; `ContinuousClock()` unless you say.
/// - Returns: A function from endpoints to their events.
public func eventStreaming(
    from transport: @escaping Transport,
    reconnection: EventStreamReconnection = .default,
    limits: StreamLimits = .default,
    clock: some Clock<Duration> = ContinuousClock()
) -> EventStreaming {
    { endpoint in
        let source = EventSourceConnection(
            endpoint: endpoint, transport: transport, reconnection: reconnection, limits: limits, clock: clock
        )
        return AsyncThrowingStream(unfolding: { try await source.next() })
    }
}

/// One event stream's connections, one after another: what a sequence made by
/// ``eventStreaming(from:reconnection:limits:clock:)`` reads from.
actor EventSourceConnection {
    private let endpoint: Endpoint
    private let transport: Transport
    private let reconnection: EventStreamReconnection
    private let limits: StreamLimits
    private let clock: any Clock<Duration>
    /// The events of the open connection, if one is open.
    private var events: ServerSentEvents.AsyncIterator?
    /// The last event ID and reconnection time, across connections.
    private var parser: ServerSentEventParser
    /// Reconnections in a row that brought no event.
    private var failures = 0
    /// Whether a connection has been opened (the first one waits for nothing).
    private var hasConnected = false
    /// Whether the sequence has ended; it gives nothing more.
    private var isFinished = false

    init(
        endpoint: Endpoint, transport: @escaping Transport, reconnection: EventStreamReconnection, limits: StreamLimits,
        clock: any Clock<Duration>
    ) {
        self.endpoint = endpoint
        self.transport = transport
        self.reconnection = reconnection
        self.limits = limits
        self.clock = clock
        parser = ServerSentEventParser(maximumEventSize: limits.maximumLineLength)
    }

    /// The next event, connecting and reconnecting as needed; `nil` once the sequence has ended.
    func next() async throws -> ServerSentEvent? {
        while !isFinished {
            do {
                if events == nil {
                    guard try await connect() else {
                        isFinished = true
                        return nil
                    }
                }
                guard var reading = events else { continue }
                let event = try await reading.next(isolation: self)
                parser = reading.parser
                if let event {
                    events = reading
                    failures = 0
                    return event
                }
                events = nil  // The connection ended cleanly: reconnect.
                try await waitBeforeReconnecting(after: nil)
            } catch {
                events = nil
                guard Self.reconnects(after: error) else {
                    isFinished = true
                    throw error
                }
                try await waitBeforeReconnecting(after: error)
            }
        }
        return nil
    }

    /// Opens a connection: `false` when the server said there is nothing more (204).
    private func connect() async throws -> Bool {
        hasConnected = true
        var request = endpoint
        request.headers["Accept"] = "text/event-stream"
        request.headers["Cache-Control"] = "no-cache"
        if !parser.lastEventID.isEmpty {
            request.headers["Last-Event-ID"] = parser.lastEventID
        }
        let response = try await stream(request, through: transport, limits: limits)
        if response.statusCode == 204 {
            return false
        }
        let contentType = response.headers["Content-Type"]
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard response.statusCode == 200, mediaType == "text/event-stream" else {
            let url = (response.response.url ?? endpoint.url).map { Redaction.default.redact($0) } ?? "(no URL)"
            throw StreamError.notEventStream(contentType: contentType, url: url)
        }
        var reading = response.body.events.makeAsyncIterator()
        reading.parser = parser
        events = reading
        return true
    }

    /// Waits before the next connection, or ends the sequence when the reconnections allowed
    /// have been made: by throwing `error`, or (after a clean end) by finishing.
    private func waitBeforeReconnecting(after error: (any Error)?) async throws {
        if let maximum = reconnection.maximumAttempts, failures >= maximum {
            isFinished = true
            if let error { throw error }
            return
        }
        let wait = reconnection.wait(afterFailures: failures, serverDelay: parser.reconnectionTime)
        failures += 1
        try await clock.sleep(for: wait)
    }

    /// Whether the sequence reconnects after `error`: after the network failed or the stream
    /// fell silent, not after a status, a limit, a wrong type or a cancellation.
    static func reconnects(after error: any Error) -> Bool {
        switch error {
        case let error as TransportError:
            error.urlError != nil
        case StreamError.idleTimeout:
            true
        case is URLError:
            true
        default:
            false
        }
    }
}

extension AsyncThrowingStream where Element == ServerSentEvent, Failure == any Error {
    /// Decodes each event's data as JSON into the type the context asks for.
    ///
    /// Swift infers the type, so a typed stream reads as one line, and, as a curried method,
    /// it chains the way `Future.decoded` does:
    ///
    /// ```swift
    /// let prices: @Sendable (Product.ID) -> AsyncThrowingStream<Price, any Error> =
    ///     chain(chain(Endpoint.prices, to: eventStreaming(from: transport)), to: AsyncThrowingStream<ServerSentEvent, any Error>.decoded)
    /// ```
    ///
    /// - Returns: A stream of the decoded values; it fails with a ``DecodingFailure`` naming
    ///   the type and the coding path at the first event that does not decode.
    public func decoded<T: Decodable & Sendable>() -> AsyncThrowingStream<T, any Error> {
        decoded(as: T.self, using: JSONDecoder())
    }

    /// Decodes each event's data as JSON into `type` with `decoder`.
    ///
    /// ```swift
    /// for try await price in events(.prices(for: 7)).decoded(as: Price.self) {
    ///     show(price)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode; inferred from the context when left out.
    ///   - decoder: The decoder; a default `JSONDecoder` when left out.
    /// - Returns: A stream of the decoded values; it fails with a ``DecodingFailure`` at the
    ///   first event that does not decode, and stops reading the events.
    public func decoded<T: Decodable & Sendable>(
        as type: T.Type = T.self,
        using decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncThrowingStream<T, any Error> {
        let decode: @Sendable (ServerSentEvent) throws -> T = { [decoder] event in
            try DecodingFailure.decode(T.self, from: Data(event.data.utf8), using: decoder)
        }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            // Pulled: an event is read from the network only when the reader asks for a value.
            let source = DecodingEvents(events: self, decode: decode)
            return AsyncThrowingStream<T, any Error>(unfolding: { try await source.next() })
        }
        // Earlier systems cannot read another stream's iterator from an actor: a task reads
        // the events as they arrive and decodes each, ahead of the reader.
        return AsyncThrowingStream<T, any Error> { continuation in
            let reading = Task {
                do {
                    for try await event in self {
                        continuation.yield(try decode(event))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }
}

/// Reads events one at a time and decodes each: the source of
/// ``AsyncThrowingStream/decoded(as:using:)``.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private actor DecodingEvents<T: Sendable> {
    private var events: AsyncThrowingStream<ServerSentEvent, any Error>.AsyncIterator
    private let decode: @Sendable (ServerSentEvent) throws -> T

    init(events: AsyncThrowingStream<ServerSentEvent, any Error>, decode: @escaping @Sendable (ServerSentEvent) throws -> T) {
        self.events = events.makeAsyncIterator()
        self.decode = decode
    }

    func next() async throws -> T? {
        var reading = events
        defer { events = reading }
        guard let event = try await reading.next(isolation: self) else { return nil }
        return try decode(event)
    }
}
