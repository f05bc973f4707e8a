import Foundation

/// Why a streamed response stopped before its end, when neither the network
/// (``TransportError``) nor the status (``HTTPStatusError``) did.
///
/// ```swift
/// do {
///     for try await line in response.body.lines { show(line) }
/// } catch StreamError.idleTimeout(let limit, _) {
///     showStalled(after: limit)
/// }
/// ```
///
/// URLs in these errors are redacted. `description` and `localizedDescription` say the same
/// words.
public enum StreamError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// No bytes arrived from `url` (redacted) for `limit`, the stream's
    /// ``StreamLimits/idleTimeout``, so the transfer was cancelled.
    case idleTimeout(limit: Duration, url: String)
    /// A line of the body grew past `limit` bytes, the stream's
    /// ``StreamLimits/maximumLineLength``, before it ended; at most about `limit` bytes of it
    /// were held in memory.
    case lineTooLong(limit: Int)
    /// The reader fell more than `limit` bytes behind the network on a platform whose
    /// URLSession cannot pause one transfer (Linux), so the transfer was cancelled rather than
    /// held in memory. Read the body as it arrives, or move slow work off the reading loop.
    case fellBehind(limit: Int, url: String)
    /// The answer from `url` (redacted) is not an event stream: its `Content-Type` is
    /// `contentType` (`nil` when it had none), not `text/event-stream`, so no event was read
    /// and the connection was not retried.
    case notEventStream(contentType: String?, url: String)
    /// The body was read a second time: a body is read once, as it arrives.
    case alreadyConsumed

    /// The error in words.
    public var description: String {
        switch self {
        case .idleTimeout(let limit, let url):
            "No bytes arrived from \(url) for \(limit), the stream's idle limit, so the stream was stopped; "
                + "raise StreamLimits.idleTimeout if the server may stay silent longer."
        case .lineTooLong(let limit):
            "A line of the stream is longer than the limit of \(limit) bytes, so the stream was stopped; "
                + "raise StreamLimits.maximumLineLength if the server's lines are that long."
        case .fellBehind(let limit, let url):
            "The reader fell more than \(limit) bytes behind the stream from \(url), which this platform cannot pause, "
                + "so the stream was stopped; read the body as it arrives and move slow work out of the reading loop."
        case .notEventStream(let contentType?, let url):
            "The answer from \(url) is \(contentType), not an event stream (text/event-stream), so no event was read."
        case .notEventStream(nil, let url):
            "The answer from \(url) has no Content-Type, so it is not an event stream (text/event-stream) and no event was read."
        case .alreadyConsumed:
            "The response body was read a second time; a streamed body is read once, as it arrives."
        }
    }

    /// The same words as ``description``.
    public var errorDescription: String? { description }
}
