/// The error of a future that did not complete in time (see ``Future/timeout(after:clock:)``).
public struct TimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How long the future was given.
    public let limit: Duration

    /// Creates the error for a time limit.
    ///
    /// - Parameter limit: How long the future was given.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// A sentence saying what happened, with the limit as `Duration` writes it:
    /// "The operation did not complete within 2.0 seconds."
    public var description: String {
        "The operation did not complete within \(limit)."
    }
}
