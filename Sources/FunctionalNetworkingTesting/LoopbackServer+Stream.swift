import Foundation
import FunctionalNetworking

extension LoopbackServer {
    /// One step of a streamed response body (see ``LoopbackServer/Response/stream(_:status:headers:)``):
    /// bytes sent as one HTTP chunk, a pause, or the end of the connection.
    ///
    /// A streamed body goes out with `Transfer-Encoding: chunked`, one write per part, so the
    /// client sees each part when the server sends it. After the last part the server sends the
    /// terminating chunk, unless a part cut the connection first or never ends.
    ///
    /// ```swift
    /// server.enqueue(.stream([.text("Hello, "), .pause(.milliseconds(50)), .text("world")]))
    /// server.enqueue(.eventStream([.event(ServerSentEvent(data: "first")), .eventCutShort(ServerSentEvent(data: "second"))]))
    /// ```
    public enum StreamPart: Sendable, Hashable {
        /// Bytes sent at once as one chunk; empty bytes send nothing.
        case bytes(Data)
        /// A pause before the next part. Stopping the server cuts it short.
        case pause(Duration)
        /// The bytes as one chunk (none when empty), then the connection closed at once, without
        /// the terminating chunk: the client sees the body end before it was complete. Later
        /// parts are not sent.
        case cutAfter(Data)
        /// The bytes as one chunk, over and over, with `every` between two sends, until the
        /// client closes the connection or the server stops. Later parts are not sent.
        case repeating(Data, every: Duration)

        /// UTF-8 text sent as one chunk.
        ///
        /// - Parameter text: The text.
        /// - Returns: The part.
        public static func text(_ text: String) -> Self {
            .bytes(Data(text.utf8))
        }

        /// One Server-Sent Event in the `text/event-stream` format, ending with its blank line,
        /// sent as one chunk.
        ///
        /// The `event:` field is written when the type is not `"message"`, `id:` when the event
        /// has one, `retry:` (in whole milliseconds) when it has one, and one `data:` line per
        /// line of its data.
        ///
        /// - Parameter event: The event.
        /// - Returns: The part.
        public static func event(_ event: ServerSentEvent) -> Self {
            .bytes(LoopbackServer.eventStreamBytes(for: event))
        }

        /// A comment line (`: text`), which clients ignore; servers send them to keep a
        /// connection alive.
        ///
        /// - Parameter text: The comment, on one line.
        /// - Returns: The part.
        public static func comment(_ text: String) -> Self {
            .text(": \(text)\n")
        }

        /// The first half of `event`'s bytes as one chunk, then the connection closed
        /// (see ``cutAfter(_:)``): an event cut in the middle, which a client must drop.
        ///
        /// - Parameter event: The event to cut short.
        /// - Returns: The part.
        public static func eventCutShort(_ event: ServerSentEvent) -> Self {
            let bytes = LoopbackServer.eventStreamBytes(for: event)
            return .cutAfter(bytes.prefix(bytes.count / 2))
        }

        /// The connection closed at once, without the terminating chunk (``cutAfter(_:)`` with
        /// no bytes). Later parts are not sent.
        public static var cut: Self { .cutAfter(Data()) }
    }

    /// The `text/event-stream` form of `event`, ending with its blank line.
    static func eventStreamBytes(for event: ServerSentEvent) -> Data {
        var text = ""
        if event.event != "message" { text += "event: \(event.event)\n" }
        if let id = event.id { text += "id: \(id)\n" }
        if let retry = event.retry {
            let (seconds, attoseconds) = retry.components
            text += "retry: \(seconds * 1_000 + attoseconds / 1_000_000_000_000_000)\n"
        }
        for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return Data((text + "\n").utf8)
    }
}

extension LoopbackServer.Response {
    /// A response whose body is streamed part by part, with `Transfer-Encoding: chunked`.
    ///
    /// ```swift
    /// server.enqueue(.stream([.text("Hello, "), .pause(.milliseconds(50)), .text("world")]))
    /// ```
    ///
    /// The response's ``delay`` and ``fault`` still apply; ``throttle`` and ``repetition`` do
    /// not. A `HEAD` request, or a status without a body (1xx, 204, 304), gets the head only.
    ///
    /// - Parameters:
    ///   - parts: The body's parts, in order.
    ///   - status: The status code. Defaults to `200`.
    ///   - headers: Header fields; any `Content-Length` or `Transfer-Encoding` is replaced.
    /// - Returns: The response.
    public static func stream(_ parts: [LoopbackServer.StreamPart], status: Int = 200, headers: [LoopbackServer.Header] = []) -> Self {
        var response = Self(status: status, headers: headers)
        response.streamParts = parts
        return response
    }

    /// A streamed response of `chunks`, the first sent with the head and each next one
    /// `interval` after the previous.
    ///
    /// ```swift
    /// server.enqueue(.chunks(["one", "two", "three"], every: .milliseconds(100)))
    /// ```
    ///
    /// - Parameters:
    ///   - chunks: The body's pieces, each sent as one chunk (as UTF-8).
    ///   - interval: The pause between two chunks.
    ///   - headers: Header fields, sent after `Content-Type: text/plain; charset=utf-8`.
    /// - Returns: The response.
    public static func chunks(_ chunks: [String], every interval: Duration, headers: [LoopbackServer.Header] = []) -> Self {
        var parts: [LoopbackServer.StreamPart] = []
        for (index, chunk) in chunks.enumerated() {
            if index > 0 { parts.append(.pause(interval)) }
            parts.append(.text(chunk))
        }
        return .stream(parts, headers: [.init("Content-Type", "text/plain; charset=utf-8")] + headers)
    }

    /// A Server-Sent Events response (`Content-Type: text/event-stream`,
    /// `Cache-Control: no-cache`) streaming `parts`, for events mixed with comments, pauses,
    /// a cut or an endless part.
    ///
    /// ```swift
    /// server.enqueue(.eventStream([.comment("hi"), .event(ServerSentEvent(data: "one")), .cut]))
    /// ```
    ///
    /// - Parameters:
    ///   - parts: The body's parts, in order.
    ///   - status: The status code. Defaults to `200`.
    ///   - headers: Extra header fields, sent after the two above.
    /// - Returns: The response.
    public static func eventStream(_ parts: [LoopbackServer.StreamPart], status: Int = 200, headers: [LoopbackServer.Header] = []) -> Self {
        .stream(parts, status: status, headers: [.init("Content-Type", "text/event-stream"), .init("Cache-Control", "no-cache")] + headers)
    }

    /// A Server-Sent Events response sending `events`, the first with the head and each next
    /// one `interval` after the previous, then ending the body.
    ///
    /// ```swift
    /// server.enqueue(.events([ServerSentEvent(data: "one", id: "1"), ServerSentEvent(event: "done", data: "")], every: .milliseconds(20)))
    /// ```
    ///
    /// - Parameters:
    ///   - events: The events, each written in the `text/event-stream` format as one chunk.
    ///   - interval: The pause between two events. Defaults to none.
    ///   - headers: Extra header fields.
    /// - Returns: The response.
    public static func events(_ events: [ServerSentEvent], every interval: Duration = .zero, headers: [LoopbackServer.Header] = []) -> Self
    {
        var parts: [LoopbackServer.StreamPart] = []
        for (index, event) in events.enumerated() {
            if index > 0, interval > .zero { parts.append(.pause(interval)) }
            parts.append(.event(event))
        }
        return .eventStream(parts, headers: headers)
    }

    /// A Server-Sent Events response whose first line never ends: `prefix`, then `x`s in
    /// 4 KiB chunks, as fast as the client reads them, until it closes the connection (or the
    /// server stops). It tests a client's limit on one line or event.
    ///
    /// ```swift
    /// server.enqueue(.endlessLine())
    /// ```
    ///
    /// - Parameter prefix: What the line starts with. Defaults to `"data: "`.
    /// - Returns: The response.
    public static func endlessLine(startingWith prefix: String = "data: ") -> Self {
        .eventStream([.text(prefix), .repeating(Data(repeating: UInt8(ascii: "x"), count: 4_096), every: .zero)])
    }
}
