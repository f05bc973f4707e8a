import Foundation

extension LoopbackServer {
    /// A request as the server received it, in arrival order.
    ///
    /// Obtain them with `takeRequest(timeout:)` or inspect
    /// them in a ``LoopbackServer/Dispatcher``.
    ///
    /// ```swift
    /// let request = try #require(await server.takeRequest())
    /// #expect(request.method == "POST")
    /// #expect(request.path == "/users")
    /// #expect(request.header("content-type") == "application/json")
    /// #expect(request.bodyText == #"{"name":"Ada"}"#)
    /// ```
    public struct RecordedRequest: Sendable, Equatable {
        /// The method, e.g. `GET`, exactly as sent.
        public var method: String
        /// The raw request target from the request line, e.g. `/search?q=a%20b`.
        public var target: String
        /// The protocol version from the request line, e.g. `HTTP/1.1`.
        public var httpVersion: String
        /// Header fields in the order received. Names may repeat.
        public var headers: [Header]
        /// The body, de-chunked if it was sent with `Transfer-Encoding: chunked`; empty when
        /// the server kept only its digest (``LoopbackServer/BodyRecording/digestOnly``).
        public var body: Data
        /// Position among all requests this server received, starting at 0.
        public var sequenceNumber: Int
        /// Which connection carried the request: 0 for the first accepted connection,
        /// 1 for the second, and so on. Equal indices mean the connection was reused.
        public var connectionIndex: Int
        /// Position among the requests on the same connection, starting at 0.
        public var connectionSequenceNumber: Int
        /// The digest the server computed while it discarded the body, if it did.
        var discardedBodyDigest: LoopbackServer.BodyDigest?

        /// Creates a recorded request; the server does this, tests rarely need to.
        ///
        /// - Parameters:
        ///   - method: The method.
        ///   - target: The raw request target.
        ///   - httpVersion: The protocol version.
        ///   - headers: The header fields.
        ///   - body: The decoded body.
        ///   - sequenceNumber: The server-wide arrival index.
        ///   - connectionIndex: The connection's accept index.
        ///   - connectionSequenceNumber: The arrival index on that connection.
        init(
            method: String,
            target: String,
            httpVersion: String = "HTTP/1.1",
            headers: [Header] = [],
            body: Data = Data(),
            sequenceNumber: Int = 0,
            connectionIndex: Int = 0,
            connectionSequenceNumber: Int = 0
        ) {
            self.method = method
            self.target = target
            self.httpVersion = httpVersion
            self.headers = headers
            self.body = body
            self.sequenceNumber = sequenceNumber
            self.connectionIndex = connectionIndex
            self.connectionSequenceNumber = connectionSequenceNumber
        }

        /// The path part of ``target``, without the query, still percent-encoded.
        ///
        /// For `/search?q=swift` this is `/search`.
        public var path: String {
            guard let mark = target.firstIndex(of: "?") else { return target }
            return String(target[..<mark])
        }

        /// The raw query (after `?`, still percent-encoded), or `nil` when there is none.
        public var query: String? {
            guard let mark = target.firstIndex(of: "?") else { return nil }
            return String(target[target.index(after: mark)...])
        }

        /// The query parsed into items, percent-decoded; empty when there is no query.
        ///
        /// For `/search?q=a%20b&flag&page=2` this is `[q: "a b", flag: nil, page: "2"]`.
        /// Like `URLComponents`, `+` is kept as is; malformed escapes are kept raw.
        public var queryItems: [URLQueryItem] {
            guard let query else { return [] }
            return query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.percentDecoded(parts[0])
                let value = parts.count > 1 ? Self.percentDecoded(parts[1]) : nil
                return URLQueryItem(name: name, value: value)
            }
        }

        /// The first value of the header called `name`, compared case-insensitively.
        ///
        /// - Parameter name: A header name, e.g. `"content-type"`.
        /// - Returns: The value, or `nil` when absent.
        public func header(_ name: String) -> String? {
            headers.firstValue(named: name)
        }

        /// Every value of the header called `name`, compared case-insensitively, in order.
        ///
        /// - Parameter name: A header name, e.g. `"cookie"`.
        /// - Returns: The values; empty when absent.
        public func headers(named name: String) -> [String] {
            headers.values(named: name)
        }

        /// The body decoded as UTF-8 (invalid sequences become U+FFFD).
        public var bodyText: String {
            String(decoding: body, as: UTF8.self)
        }

        /// The body's size and CRC-32: computed as it arrived when the server discarded it
        /// (``LoopbackServer/BodyRecording/digestOnly``), else computed from ``body``.
        ///
        /// ```swift
        /// #expect(request.bodyDigest == (try LoopbackServer.BodyDigest(contentsOf: sentFile)))
        /// ```
        public var bodyDigest: LoopbackServer.BodyDigest {
            discardedBodyDigest ?? LoopbackServer.BodyDigest(body)
        }

        /// Whether the server read the body without keeping it, as
        /// ``LoopbackServer/BodyRecording/digestOnly`` asks: ``body`` is then empty and
        /// ``bodyDigest`` tells what arrived.
        public var isBodyDiscarded: Bool {
            discardedBodyDigest != nil
        }

        private static func percentDecoded(_ text: Substring) -> String {
            let raw = String(text)
            return raw.removingPercentEncoding ?? raw
        }
    }
}
