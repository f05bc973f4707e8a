import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The package's Server-Sent Events client against a server nobody here wrote: Python's
/// `sse-starlette` on `uvicorn` (`Streams/Peer/sse_peer.py`), started for the suite on 127.0.0.1
/// by ``PythonSSEPeer``. Skipped where python3, `sse-starlette` or `uvicorn` is missing, unless
/// `FUNCTIONAL_NETWORKING_SSE_PEER=1` (as in `.ci/run`) makes that a failure.
@Suite(
    .enabled(PythonSSEPeer.skipReason) { await PythonSSEPeer.shouldRun() },
    .pythonSSEPeer
)
struct ServerSentEventsPeerTests {
    /// What `GET /fields` sends, as the WHATWG interpretation dispatches it.
    static let fieldEvents = [
        ServerSentEvent(data: "first"),
        ServerSentEvent(event: "greeting", data: "hello", id: "g-1"),
        ServerSentEvent(event: "unicode", data: "café ☕ 🚀", id: "g-2"),
        // The id persists until a field changes it; a second space after the colon is data.
        ServerSentEvent(event: "spacing", data: " leading space kept", id: "g-2"),
        ServerSentEvent(event: "empty", data: "", id: "g-2"),
        ServerSentEvent(event: "configured", data: "done", id: "g-3", retry: .milliseconds(2_500)),
        // An empty `id:` without data dispatches nothing and clears the last event id.
        ServerSentEvent(data: "after reset"),
        ServerSentEvent(event: "json", data: #"{"price":42,"name":"widget"}"#, id: "g-4"),
    ]

    /// What `GET /multiline` sends: sse-starlette splits data at LF, CRLF and CR into `data:` lines.
    static let multilineEvents = [
        ServerSentEvent(data: "line one\nline two\nline three\nline four", id: "m-1"),
        ServerSentEvent(data: "trailing\n", id: "m-2"),
        ServerSentEvent(data: "\n", id: "m-3"),
        ServerSentEvent(event: "pretty", data: "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ]\n}", id: "m-4"),
    ]

    /// What `GET /comments` sends once its comments are ignored.
    static let commentEvents = [
        ServerSentEvent(data: "a", id: "c-1"), ServerSentEvent(data: "b", id: "c-2"), ServerSentEvent(data: "c", id: "c-3"),
    ]

    /// The whole body of a GET, with a time limit.
    static func body(of url: URL) async throws -> (Data, HTTPURLResponse) {
        let transport = makeTestSession().transport
        let (data, response) = try await Future { try await transport(URLRequest(url: url)) }
            .timeout(after: .seconds(30)).value
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// `bytes` through the package's parser, `chunk` bytes at a time.
    static func parse(_ bytes: Data, chunk: Int) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let end = min(offset + chunk, bytes.endIndex)
            events += try parser.parse(bytes[offset..<end])
            offset = end
        }
        parser.finish()
        return events
    }

    /// The lines `GET /fields` sends, without their line ends.
    static let fieldLines = [
        "data: first", "",
        "id: g-1", "event: greeting", "data: hello", "",
        "id: g-2", "event: unicode", "data: café ☕ 🚀", "",
        "event: spacing", "data:  leading space kept", "",
        "event: empty", "data: ", "",
        "id: g-3", "event: configured", "data: done", "retry: 2500", "",
        "id: ", "",
        "data: after reset", "",
        "id: g-4", "event: json", #"data: {"price":42,"name":"widget"}"#, "",
    ]

    /// The peer's `path` with `query`, as an endpoint.
    static func endpoint(_ peer: PythonSSEPeer, _ path: String, _ query: KeyValuePairs<String, String> = [:]) -> Endpoint {
        Endpoint(baseURL: peer.origin, path: path, queryItems: query.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// A transport of a network session of its own: ephemeral, no cache, 30 s request timeout.
    static func transport() -> Transport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return NetworkSession(configuration: configuration).transport
    }

    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    /// Every element of `sequence` until it finishes; throws ``TimedOut`` after `limit`.
    static func collect<S: AsyncSequence & Sendable>(_ sequence: S, within limit: Duration = .seconds(30)) async throws -> [S.Element]
    where S.Element: Sendable {
        try await withThrowingTaskGroup(of: [S.Element]?.self) { group in
            group.addTask {
                var elements: [S.Element] = []
                for try await element in sequence {
                    elements.append(element)
                }
                return elements
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let elements = first else {
                throw TimedOut(description: "The sequence did not finish within \(limit)")
            }
            return elements
        }
    }

    /// Collects `events` while moving `clock` to each of `reconnections` reconnection delays as
    /// the client starts to wait; returns the events and how long each wait was on the clock.
    static func collect(
        _ events: AsyncThrowingStream<ServerSentEvent, any Error>, clock: TestClock, reconnections: Int
    ) async throws -> (events: [ServerSentEvent], waits: [Duration]) {
        async let collected = collect(events)
        var waits: [Duration] = []
        for _ in 0..<reconnections {
            let before = clock.now
            try await clock.waitForSleepers(count: 1, timeout: .seconds(30))
            clock.advanceToNextDeadline()
            waits.append(before.duration(to: clock.now))
        }
        return (try await collected, waits)
    }

    // MARK: The parser on sse-starlette's own bytes

    @Test(.timeLimit(.minutes(1)), arguments: ["crlf", "lf", "cr"])
    func theParserReadsEveryFieldOfSSEStarletteWhateverItsLineEnd(separator: String) async throws {
        let peer = try PythonSSEPeer.required()
        let (bytes, response) = try await Self.body(of: peer.url("/fields?sep=\(separator)"))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/event-stream; charset=utf-8")
        for chunk in [bytes.count, 7, 1] {
            #expect(try Self.parse(bytes, chunk: chunk) == Self.fieldEvents, "in chunks of \(chunk) bytes")
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["crlf", "lf", "cr"])
    func theParserJoinsSSEStarlettesDataLinesWithLineFeeds(separator: String) async throws {
        let peer = try PythonSSEPeer.required()
        let (bytes, _) = try await Self.body(of: peer.url("/multiline?sep=\(separator)"))
        #expect(try Self.parse(bytes, chunk: bytes.count) == Self.multilineEvents)
        #expect(try Self.parse(bytes, chunk: 1) == Self.multilineEvents)
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["crlf", "lf", "cr"])
    func theParserIgnoresSSEStarlettesComments(separator: String) async throws {
        let peer = try PythonSSEPeer.required()
        let (bytes, _) = try await Self.body(of: peer.url("/comments?sep=\(separator)"))
        #expect(try Self.parse(bytes, chunk: bytes.count) == Self.commentEvents)
        #expect(try Self.parse(bytes, chunk: 1) == Self.commentEvents)
    }

    // MARK: stream(_:through:) against sse-starlette

    @Test(.timeLimit(.minutes(1)), arguments: ["crlf", "lf"])
    func streamHandsOverSSEStarlettesHeadersAndItsLinesWithoutLineEnds(separator: String) async throws {
        let peer = try PythonSSEPeer.required()
        let response = try await stream(Self.endpoint(peer, "/fields", ["sep": separator]), through: Self.transport())
        #expect(response.statusCode == 200)
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["X-Accel-Buffering"] == "no")
        #expect(try await Self.collect(response.body.lines) == Self.fieldLines)
    }

    @Test(.timeLimit(.minutes(1)))
    func streamShowsSSEStarlettesPingCommentsAsLinesBetweenEvents() async throws {
        let peer = try PythonSSEPeer.required()
        let response = try await stream(Self.endpoint(peer, "/pinged"), through: Self.transport())
        let lines = try await Self.collect(response.body.lines)
        let dataLines = lines.filter { $0.hasPrefix("data:") }
        #expect(dataLines == ["data: event 1", "data: event 2", "data: event 3"])
        // Each event waits for a ping: a ping comment comes before each data line.
        let firstData = try #require(lines.firstIndex(of: "data: event 1"))
        #expect(lines[..<firstData].contains(": keep-alive"))
        #expect(lines.count(where: { $0 == ": keep-alive" }) >= 3)
    }

    @Test(.timeLimit(.minutes(1)))
    func aStreamedBodysEventsAreSSEStarlettesEvents() async throws {
        let peer = try PythonSSEPeer.required()
        let response = try await stream(Self.endpoint(peer, "/fields"), through: Self.transport())
        #expect(try await Self.collect(response.body.events) == Self.fieldEvents)
    }
}
