/// The error of a future that would wait for itself: a ``Future/flatMap(_:)``,
/// ``Future/flatMapError(_:)`` or ``Future/retry(maxAttempts:backoff:clock:shouldRetry:_:)``
/// handler returned the very future it completes, or a future that waits for it.
///
/// Such a future could never complete, so it fails at once with this error instead (the rule
/// Promises/A+ gives for a promise resolved with itself), and so does every future that waits
/// for it:
///
/// ```swift
/// let reload = refresh.flatMap { _ in cache.current }   // `cache.current` is `reload` itself
/// // reload fails at once: "A future cannot follow itself: a flatMap, flatMapError or retry
/// // handler returned the future it completes, …"
/// ```
///
/// A longer cycle (the handler returns a future that waits, directly or through others, for
/// the one it completes) is recognised when it goes through 64 futures or fewer, and fails the
/// same way.
public struct FutureCycle: Error, Sendable, Equatable, CustomStringConvertible {
    /// How many futures the cycle goes through: 1 when the handler returned the future it
    /// completes, 2 when it returned a future that waits for that one, and so on.
    public let length: Int

    /// Creates the error for a cycle through `length` futures.
    public init(length: Int) {
        self.length = length
    }

    /// The longest cycle looked for (see ``Future/cycleLength(following:)``).
    @usableFromInline static let longestFound = 64

    /// What happened, and how to fix it.
    public var description: String {
        guard length > 1 else {
            return "A future cannot follow itself: a flatMap, flatMapError or retry handler returned the future "
                + "it completes, so that future would wait for itself and never complete. Return another future, "
                + "or wrap a value in Future(value:)."
        }
        let through =
            switch length {
            case 2: ""
            case 3: ", through 1 other future,"
            default: ", through \(length - 2) other futures,"
            }
        return "A future cannot follow itself: a flatMap, flatMapError or retry handler returned a future that waits"
            + "\(through) for the one the handler completes, so none of them could ever complete. Return a future "
            + "that does not wait for the one the handler completes."
    }
}
