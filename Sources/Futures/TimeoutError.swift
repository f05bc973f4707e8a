/// The error of a future that did not complete in time (see ``Future/timeout(after:clock:)``).
public struct TimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How long the future was given, as the clock writes it ("2.0 seconds").
    public let limit: String

    /// Creates the error for a time limit.
    public init(limit: String) {
        self.limit = limit
    }

    /// A sentence saying what happened.
    public var description: String {
        "The operation did not complete within \(limit)."
    }
}
