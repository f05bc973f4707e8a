import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One line of a request log, written by ``Composer/logged(to:level:redaction:clock:)``: a
/// ready ``message`` and the same facts as fields. Every text in it is already redacted.
///
/// ```swift
/// record.message   // "← #1 3F2A9C1E GET https://shop.test/products?token=<redacted> 200 in 84 ms, 512 bytes"
/// record.status    // 200
/// record.duration  // .milliseconds(84)
/// ```
public struct LogRecord: Sendable, Hashable, CustomStringConvertible {
    /// How much a record matters; ordered `debug < info < warning < error`.
    ///
    /// ``name`` is the name swift-log uses for the same level, so
    /// `Logger.Level(rawValue: record.level.name)` converts it.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// A request started.
        case debug
        /// A request finished with a status below 400, or was cancelled.
        case info
        /// A request finished with a 4xx status.
        case warning
        /// A request failed (threw), or finished with a 5xx status.
        case error

        /// `debug`, `info`, `warning` or `error`.
        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// The same as ``name``.
        public var description: String { name }

        /// Whether `lhs` matters less than `rhs`.
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }

    /// Which moment of the request a record reports.
    public enum Event: Sendable, Hashable {
        /// The request is about to be passed on.
        case started
        /// A response came back (whatever its status).
        case finished
        /// The call below threw an error other than cancellation.
        case failed
        /// The call below was cancelled (`CancellationError` or `URLError.cancelled`).
        case cancelled
    }

    /// Which moment this record reports.
    public var event: Event
    /// How much it matters.
    public var level: Level
    /// The whole record as one redacted line, ready for any logger.
    public var message: String
    /// The request's method, such as `GET`.
    public var method: String
    /// The request's URL, redacted.
    public var url: String
    /// The request's headers, redacted.
    public var requestHeaders: HTTPHeaders
    /// The response's headers, redacted; empty unless ``event`` is ``Event/finished``.
    public var responseHeaders: HTTPHeaders
    /// The response's status; for a failure, the status of an ``HTTPStatusError``.
    public var status: Int?
    /// The time from start to end on the composer's clock; `nil` in a start record.
    public var duration: Duration?
    /// The number of body bytes received; `nil` unless ``event`` is ``Event/finished``.
    public var bytes: Int?
    /// The request's id, from ``RequestContext/current`` when `.numbered()` is above.
    public var requestID: UUID?
    /// The request's sequence number, from ``RequestContext/current``.
    public var requestNumber: Int?
    /// What went wrong, redacted; `nil` unless the request failed or was cancelled.
    public var error: String?

    /// Creates a record; ``Composer/logged(to:level:redaction:clock:)`` does this for you.
    init(
        event: Event, level: Level, message: String, method: String, url: String,
        requestHeaders: HTTPHeaders = [:], responseHeaders: HTTPHeaders = [:], status: Int? = nil,
        duration: Duration? = nil, bytes: Int? = nil, requestID: UUID? = nil, requestNumber: Int? = nil,
        error: String? = nil
    ) {
        self.event = event
        self.level = level
        self.message = message
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
        self.status = status
        self.duration = duration
        self.bytes = bytes
        self.requestID = requestID
        self.requestNumber = requestNumber
        self.error = error
    }

    /// The same as ``message``.
    public var description: String { message }
}
