import Foundation
import FunctionalNetworking

#if canImport(EventSource)
import EventSource
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The five ways of section 12 to read the server's event stream, from the floor up.
public enum StreamScenario: String, CaseIterable, Sendable {
    /// a. Raw URLSession: a `URLSessionDataDelegate` that splits events with ``EventSplitter``.
    case urlSessionDelegate = "a"
    /// b. `stream(_:through:)` and `response.body.events` over `NetworkSession.transport`.
    case streamEvents = "b"
    /// c. `eventStreaming(from:)` and `.decoded(as: Tick.self)` over `NetworkSession.transport`.
    case eventStreamingDecoded = "c"
    /// d. c over a stack: `.logged(to:)` at `.info`, `.metrics(into:)`, `.retry()`,
    ///    `.validatingStatus()`.
    case stack = "d"
    /// e. mattt/EventSource's `events` over the body's bytes (see ``AsyncBodyBytes``).
    case eventSource = "e"
    /// f. (To tell c's costs apart.) `eventStreaming(from:)` without decoding.
    case eventStreaming = "f"
    /// g. (To tell c's costs apart.) b, and each event's data decoded with one `JSONDecoder`.
    case streamEventsDecoded = "g"
    /// h. (To tell a's costs apart.) a, with the delegate's callbacks run at once on
    ///    URLSession's own thread (as the package's session runs them on Linux) instead of on
    ///    an `OperationQueue`.
    case urlSessionDelegateInline = "h"
    /// i. (To tell c's costs apart.) f, decoded by `map` with one `JSONDecoder` in the reading
    ///    task, instead of `.decoded(as:)`.
    case eventStreamingMapped = "i"
    /// j. (Memory only.) b, with the reading started 2 seconds after the response: the whole
    ///    body waits in the package's channel first, as for a reader that fell behind.
    case streamEventsLate = "j"

    /// The scenarios of the comparison (a-e); f and g only tell c's costs apart.
    /// (e only where mattt/EventSource builds: it needs `URLSession.bytes(for:)`, which Linux's
    /// URLSession lacks.)
    public static let compared: [StreamScenario] = {
        #if canImport(EventSource)
        [.urlSessionDelegate, .streamEvents, .eventStreamingDecoded, .stack, .eventSource]
        #else
        [.urlSessionDelegate, .streamEvents, .eventStreamingDecoded, .stack]
        #endif
    }()

    /// The name's last part in the benchmarks (`12-stream-100k.<name>`).
    public var name: String {
        switch self {
        case .urlSessionDelegate: "URLSessionDelegate"
        case .streamEvents: "StreamEvents"
        case .eventStreamingDecoded: "EventStreamingDecoded"
        case .stack: "Stack"
        case .eventSource: "EventSource"
        case .eventStreaming: "EventStreaming"
        case .streamEventsDecoded: "StreamEventsDecoded"
        case .urlSessionDelegateInline: "URLSessionDelegateInline"
        case .eventStreamingMapped: "EventStreamingMapped"
        case .streamEventsLate: "StreamEventsLate"
        }
    }

    /// What the scenario runs, in a few words.
    public var summary: String {
        switch self {
        case .urlSessionDelegate: "raw URLSession delegate + `\\n\\n` splitter"
        case .streamEvents: "`stream(_:through:)` + `body.events`"
        case .eventStreamingDecoded: "`eventStreaming(from:)` + `.decoded(as:)`"
        case .stack: "c over logged, metrics, retry, validatingStatus"
        case .eventSource: "mattt/EventSource `events` over the delegate's bytes"
        case .eventStreaming: "`eventStreaming(from:)`, not decoded"
        case .streamEventsDecoded: "b + `JSONDecoder` per event"
        case .urlSessionDelegateInline: "a, callbacks inline on URLSession's thread"
        case .eventStreamingMapped: "f + `map` with a `JSONDecoder`"
        case .streamEventsLate: "b, read from 2 s after the response (memory only)"
        }
    }
}

/// An ``EventServer`` and a client of each scenario, made once: every run of a scenario reads
/// the whole stream once and returns the number of events it read.
///
/// Both raw clients (a and e) and the package's session use the same configuration: ephemeral,
/// no cache, generous time limits.
public final class StreamFixture: Sendable {
    /// The server.
    public let server: EventServer
    private let splittingDelegate = SplittingDelegate()
    private let splittingSession: URLSession
    private let inlineSplittingDelegate = SplittingDelegate()
    private let inlineSplittingSession: URLSession
    private let byteStreamDelegate = ByteStreamDelegate()
    private let byteStreamSession: URLSession
    private let session: NetworkSession
    private let stackTransport: Transport

    /// Starts a server of `eventCount` events in `shapes` and makes the clients.
    public init(eventCount: Int, shapes: [StreamShape] = StreamShape.allCases) throws {
        server = try EventServer(eventCount: eventCount, shapes: shapes)
        splittingSession = URLSession(configuration: Self.configuration(), delegate: splittingDelegate, delegateQueue: nil)
        inlineSplittingSession = URLSession(
            configuration: Self.configuration(), delegate: inlineSplittingDelegate, delegateQueue: InlineOperationQueue.make()
        )
        byteStreamSession = URLSession(configuration: Self.configuration(), delegate: byteStreamDelegate, delegateQueue: nil)
        session = NetworkSession(configuration: Self.configuration())
        stackTransport = session.transport(
            with: .logged(to: { record in keep(record) }, level: .info),
            .metrics(into: MetricsRecorder()),
            .retry(),
            .validatingStatus()
        )
    }

    /// Stops the server and the raw sessions.
    public func stop() {
        splittingSession.invalidateAndCancel()
        inlineSplittingSession.invalidateAndCancel()
        byteStreamSession.invalidateAndCancel()
        server.stop()
    }

    /// Reads the stream of `shape` once with `scenario`'s client, checking that every event
    /// arrived; returns their number.
    @discardableResult
    public func run(_ scenario: StreamScenario, shape: StreamShape) async throws -> Int {
        let expected = server.eventCount
        let count: Int
        switch scenario {
        case .urlSessionDelegate:
            count = try await splittingDelegate.events(of: URLRequest(url: server.url(shape)), on: splittingSession)
        case .streamEvents:
            count = try await streamEvents(shape, expected: expected)
        case .eventStreamingDecoded:
            count = try await decodedEvents(shape, through: session.transport, expected: expected)
        case .stack:
            count = try await decodedEvents(shape, through: stackTransport, expected: expected)
        case .eventSource:
            #if canImport(EventSource)
            count = try await eventSourceEvents(shape, expected: expected)
            #else
            throw ScenarioError.unavailable("mattt/EventSource does not build here: it needs URLSession.bytes(for:)")
            #endif
        case .eventStreaming:
            count = try await undecodedEvents(shape, expected: expected)
        case .streamEventsDecoded:
            count = try await streamEvents(shape, expected: expected, decoder: JSONDecoder())
        case .urlSessionDelegateInline:
            count = try await inlineSplittingDelegate.events(of: URLRequest(url: server.url(shape)), on: inlineSplittingSession)
        case .eventStreamingMapped:
            count = try await mappedEvents(shape, expected: expected)
        case .streamEventsLate:
            count = try await streamEvents(shape, expected: expected, after: .seconds(2))
        }
        server.forgetRequests()
        guard count == expected else { throw ScenarioError.wrongCount(expected: expected, got: count) }
        return count
    }

    /// b (and g, with a decoder; j, read from `wait` after the response): the body's events, up
    /// to the last one sent.
    private func streamEvents(
        _ shape: StreamShape, expected: Int, decoder: JSONDecoder? = nil, after wait: Duration = .zero
    ) async throws -> Int {
        let response = try await stream(server.endpoint(shape), through: session.transport)
        if wait > .zero {
            try await Task.sleep(for: wait)
        }
        var count = 0
        for try await event in response.body.events {
            if let decoder {
                keep(try decoder.decode(Tick.self, from: Data(event.data.utf8)))
            } else {
                keep(event)
            }
            count += 1
            if count == expected { break }
        }
        return count
    }

    /// f: the events of `eventStreaming(from:)`, not decoded.
    private func undecodedEvents(_ shape: StreamShape, expected: Int) async throws -> Int {
        let events = eventStreaming(from: session.transport)
        var count = 0
        for try await event in events(server.endpoint(shape)) {
            keep(event)
            count += 1
            if count == expected { break }
        }
        return count
    }

    /// c and d: the decoded events, up to the last one sent (the sequence would reconnect after
    /// the body's end).
    private func decodedEvents(_ shape: StreamShape, through transport: @escaping Transport, expected: Int) async throws -> Int {
        let events = eventStreaming(from: transport)
        var count = 0
        var last = -1
        for try await tick in events(server.endpoint(shape)).decoded(as: Tick.self) {
            last = tick.seq
            count += 1
            if count == expected { break }
        }
        guard last == expected - 1 else { throw ScenarioError.wrongLastEvent(last) }
        return count
    }

    /// i: the events of `eventStreaming(from:)`, decoded by `map` in the reading task.
    private func mappedEvents(_ shape: StreamShape, expected: Int) async throws -> Int {
        let events = eventStreaming(from: session.transport)
        let decoder = JSONDecoder()
        var count = 0
        var last = -1
        for try await tick in events(server.endpoint(shape)).map({ try decoder.decode(Tick.self, from: Data($0.data.utf8)) }) {
            last = tick.seq
            count += 1
            if count == expected { break }
        }
        guard last == expected - 1 else { throw ScenarioError.wrongLastEvent(last) }
        return count
    }

    #if canImport(EventSource)
    /// e: mattt/EventSource's `events` over the body's bytes, with the request EventSource
    /// makes (`Accept` and `Cache-Control`).
    private func eventSourceEvents(_ shape: StreamShape, expected: Int) async throws -> Int {
        var request = URLRequest(url: server.url(shape))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        let bytes = try await byteStreamDelegate.bytes(of: request, on: byteStreamSession)
        var count = 0
        for try await event in bytes.events {
            keep(event)
            count += 1
            if count == expected { break }
        }
        return count
    }
    #endif

    /// Every session's configuration: ephemeral, no cache, a minute's silence at most.
    private static func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = 600
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return configuration
    }
}
