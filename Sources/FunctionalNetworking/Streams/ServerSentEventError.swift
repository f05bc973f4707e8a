import Foundation

/// Why a Server-Sent Events stream could not be read further.
public enum ServerSentEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line of the stream grew past `limit` bytes before it ended, so the stream was
    /// stopped with at most `limit` bytes of it held in memory.
    case lineTooLong(limit: Int)
    /// The `data:` lines of one event together grew past `limit` bytes before the event ended.
    case eventTooLarge(limit: Int)

    /// The error in words.
    public var description: String {
        switch self {
        case .lineTooLong(let limit):
            "A line of the event stream is longer than the limit of \(limit) bytes, so the stream was stopped; "
                + "raise maximumEventSize if the server's events are that large."
        case .eventTooLarge(let limit):
            "An event of the event stream carries more than the limit of \(limit) bytes of data, so the stream was stopped; "
                + "raise maximumEventSize if the server's events are that large."
        }
    }
}

extension ServerSentEventError: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
