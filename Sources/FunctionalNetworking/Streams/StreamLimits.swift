/// The limits of one streamed call: how long the stream may stay silent, how many bytes it may
/// bring in all, and how long one line or one event may be.
///
/// ```swift
/// let limits = StreamLimits(idleTimeout: .seconds(30), maximumSize: 100 << 20)
/// let response = try await stream(.completions(for: prompt), through: transport, limits: limits)
/// ```
///
/// A stream may be endless, so there is no limit on its total unless you set one; the idle
/// limit stops one whose server has gone silent, and the line limit keeps a line (or an event)
/// that never ends from filling memory.
public struct StreamLimits: Sendable, Hashable {
    /// The longest wait for the next bytes of the body, from the response's head or the
    /// previous bytes; `nil` for no limit. Past it the stream fails with
    /// ``StreamError/idleTimeout(limit:url:)``.
    ///
    /// The session's `timeoutIntervalForRequest` (60 seconds unless its configuration says
    /// otherwise) also limits the silence of a connection: to wait longer, raise both.
    public var idleTimeout: Duration?

    /// The most body bytes the stream may bring in all; `nil` for no limit. Past it the transfer
    /// is cancelled and the stream fails with ``TransportError/responseTooLarge(limit:url:)``.
    public var maximumSize: Int?

    /// The most bytes one line of ``ResponseBody/lines`` (or one line, or the data of one event,
    /// of ``ResponseBody/events``) may hold. Past it the stream fails with
    /// ``StreamError/lineTooLong(limit:)`` (``ServerSentEventError`` for events) having held
    /// about that much of it in memory.
    public var maximumLineLength: Int

    /// Creates limits; the defaults suit a stream of text or events.
    ///
    /// - Parameters:
    ///   - idleTimeout: The longest silence between chunks; 60 seconds unless you say, `nil`
    ///     for none (a negative one counts as zero).
    ///   - maximumSize: The most bytes in all; none unless you say (a negative one counts as zero).
    ///   - maximumLineLength: The most bytes of one line or event; 1 MiB unless you say (at
    ///     least 1).
    public init(idleTimeout: Duration? = .seconds(60), maximumSize: Int? = nil, maximumLineLength: Int = 1 << 20) {
        self.idleTimeout = idleTimeout.map { max($0, .zero) }
        self.maximumSize = maximumSize.map { max($0, 0) }
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// A minute of silence at most, no limit on the total, a mebibyte a line.
    public static let `default` = StreamLimits()
}
