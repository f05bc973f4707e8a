/// How long to wait before each retry.
///
/// ```swift
/// Future.retry(maxAttempts: 4, backoff: .exponential(initial: .milliseconds(200))) {
///     loadProduct(id)
/// }
/// ```
public struct Backoff: Sendable {
    /// Whether an exponential backoff randomises its delays.
    public enum Jitter: Sendable, Equatable {
        /// Exactly the computed delay every time.
        case none
        /// A uniformly random delay between zero and the computed delay ("full jitter"), which
        /// spreads out clients that failed together so that they do not retry together.
        case full
    }

    private let delayAfter: @Sendable (Int) -> Duration

    /// A backoff computed by `delay(afterAttempt)`, for strategies of your own.
    ///
    /// - Parameter delay: Given the number of the attempt that just failed (1 for the first),
    ///   returns how long to wait before the next one.
    public init(_ delay: @escaping @Sendable (_ failedAttempt: Int) -> Duration) {
        delayAfter = delay
    }

    /// The wait after attempt number `failedAttempt` (1 for the first attempt) has failed.
    public func delay(afterAttempt failedAttempt: Int) -> Duration {
        max(.zero, delayAfter(failedAttempt))
    }

    /// Retry at once.
    public static var immediate: Backoff {
        Backoff { _ in .zero }
    }

    /// Wait the same `delay` before every retry.
    public static func constant(_ delay: Duration) -> Backoff {
        Backoff { _ in delay }
    }

    /// Wait `initial`, then `initial × multiplier`, then `initial × multiplier²` … never more
    /// than `maximum`; with full jitter by default.
    ///
    /// - Parameters:
    ///   - initial: The wait after the first failure, before jitter.
    ///   - multiplier: How much each wait grows; at least 1.
    ///   - maximum: The longest wait, before jitter.
    ///   - jitter: Whether to randomise each wait (see ``Jitter``).
    public static func exponential(
        initial: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maximum: Duration = .seconds(30),
        jitter: Jitter = .full
    ) -> Backoff {
        precondition(multiplier >= 1, "An exponential backoff's multiplier must be at least 1, got \(multiplier).")
        return Backoff { failedAttempt in
            var delay = initial
            var step = 1
            while step < failedAttempt, delay < maximum {
                delay = delay * multiplier
                step += 1
            }
            let capped = min(delay, maximum)
            switch jitter {
            case .none:
                return capped
            case .full:
                return capped * Double.random(in: 0...1)
            }
        }
    }
}
