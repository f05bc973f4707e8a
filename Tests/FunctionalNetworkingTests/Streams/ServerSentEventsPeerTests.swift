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
}
