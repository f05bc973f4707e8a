/// How ``eventStreaming(from:reconnection:limits:clock:)`` reconnects when an event stream's
/// connection ends: after how long, and how many times in a row without an event.
///
/// ```swift
/// let events = eventStreaming(from: transport, reconnection: EventStreamReconnection(delay: .seconds(1), maximumAttempts: 5))
/// ```
///
/// The server's `retry:` field replaces ``delay`` from the moment it arrives, as the standard
/// says. A connection that fails again before bringing an event waits twice as long as the one
/// before it, up to ``maximumDelay``, so that a server that is down is not hammered.
public struct EventStreamReconnection: Sendable, Hashable {
    /// The wait before reconnecting, until the server sets another with `retry:`.
    public var delay: Duration
    /// The longest wait, however many attempts in a row have failed.
    public var maximumDelay: Duration
    /// How many reconnections in a row may bring no event before the sequence gives up (with
    /// the last error, or ending when the last connection ended cleanly); `nil` for no limit.
    public var maximumAttempts: Int?

    /// Creates a reconnection policy.
    ///
    /// - Parameters:
    ///   - delay: The wait before reconnecting; 3 seconds unless you say.
    ///   - maximumDelay: The longest wait after failures in a row; 60 seconds unless you say.
    ///   - maximumAttempts: Reconnections in a row without an event before giving up; no limit
    ///     unless you say.
    public init(delay: Duration = .seconds(3), maximumDelay: Duration = .seconds(60), maximumAttempts: Int? = nil) {
        self.delay = max(.zero, delay)
        self.maximumDelay = max(self.delay, maximumDelay)
        self.maximumAttempts = maximumAttempts.map { max(0, $0) }
    }

    /// Reconnects after 3 seconds (or the server's `retry:`), for as long as it takes.
    public static let `default` = EventStreamReconnection()

    /// Never reconnects: the sequence ends when the connection does.
    public static let never = EventStreamReconnection(maximumAttempts: 0)

    /// The wait before reconnection number `failures + 1` in a row, given the server's
    /// reconnection time, if it set one.
    func wait(afterFailures failures: Int, serverDelay: Duration?) -> Duration {
        var wait = serverDelay ?? delay
        for _ in 0..<min(failures, 16) where wait < maximumDelay {
            wait = wait * 2
        }
        return failures == 0 ? wait : min(wait, max(maximumDelay, serverDelay ?? .zero))
    }
}
