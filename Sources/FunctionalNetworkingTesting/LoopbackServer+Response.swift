import Foundation

extension LoopbackServer {
    /// A scripted HTTP response: what the server sends back, and how.
    ///
    /// A response is a plain value. Besides status, headers and body it carries
    /// behaviour knobs: a ``delay`` before the head is sent, an optional body
    /// ``throttle``, and a ``fault`` that misbehaves on purpose.
    ///
    /// The server always writes a `Content-Length` header equal to `body.count`
    /// (any `Content-Length` or `Transfer-Encoding` you set is replaced; a streamed or
    /// endlessly repeated body is chunked instead), and
    /// omits the body for `HEAD` requests and for 1xx, 204 and 304 responses.
    ///
    /// ```swift
    /// server.enqueue(.json(#"{"id": 1}"#))
    /// server.enqueue(.text("slow", status: 200).delayed(by: .milliseconds(200)))
    /// server.enqueue(LoopbackServer.Response(status: 503, headers: [.init("Retry-After", "1")]))
    /// server.enqueue(.status(200).withFault(.closeMidBody))
    /// ```
    public struct Response: Sendable, Equatable {
        /// The status code, e.g. `200`.
        public var status: Int
        /// Replaces the derived reason phrase when set.
        private var customReasonPhrase: String?
        /// Header fields in send order. Names may repeat.
        public var headers: [Header]
        /// The body bytes.
        public var body: Data
        /// How long to wait, after the request is read, before sending anything.
        public var delay: Duration
        /// When set, the body is written in slices with pauses between them.
        public var throttle: Throttle?
        /// A deliberate misbehaviour; ``Fault/none`` for a well-behaved response.
        public var fault: Fault
        /// How many times the body is written; ``Repetition/once`` unless set with
        /// ``repeated(_:)``.
        public var repetition: Repetition = .once
        /// When set, the body is streamed part by part with `Transfer-Encoding: chunked`
        /// instead of sending ``body``; see ``stream(_:status:headers:)``.
        public var streamParts: [StreamPart]?

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - status: The status code. Defaults to `200`.
        ///   - reasonPhrase: The reason phrase; `nil` derives it from `status`
        ///     (e.g. `404` → `Not Found`).
        ///   - headers: Header fields in send order.
        ///   - body: The body bytes.
        ///   - delay: Pause before the response head is sent.
        ///   - throttle: Optional body pacing.
        ///   - fault: Optional deliberate misbehaviour.
        public init(
            status: Int = 200,
            reasonPhrase: String? = nil,
            headers: [Header] = [],
            body: Data = Data(),
            delay: Duration = .zero,
            throttle: Throttle? = nil,
            fault: Fault = .none
        ) {
            self.status = status
            self.customReasonPhrase = reasonPhrase
            self.headers = headers
            self.body = body
            self.delay = delay
            self.throttle = throttle
            self.fault = fault
        }

        /// The reason phrase on the status line.
        ///
        /// Derived from ``status`` (the standard phrase, or the class's, such as "Server Error")
        /// unless you assign one.
        public var reasonPhrase: String {
            get { customReasonPhrase ?? LoopbackServer.reasonPhrase(for: status) }
            set { customReasonPhrase = newValue }
        }

        /// The first value of the header called `name`, compared case-insensitively.
        ///
        /// - Parameter name: A header name, e.g. `"content-type"`.
        /// - Returns: The value, or `nil` when absent.
        public func header(_ name: String) -> String? {
            headers.firstValue(named: name)
        }
    }
}
