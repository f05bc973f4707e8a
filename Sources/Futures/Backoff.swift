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
    ///   - initial: The wait after the first failure, before jitter; a negative one counts as zero.
    ///   - multiplier: How much each wait grows; a value below 1, or not a number, counts as 1
    ///     (the waits never shrink), and a very large one reaches `maximum` at once.
    ///   - maximum: The longest wait, before jitter; a negative one counts as zero.
    ///   - jitter: Whether to randomise each wait (see ``Jitter``).
    public static func exponential(
        initial: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maximum: Duration = .seconds(30),
        jitter: Jitter = .full
    ) -> Backoff {
        let growth = multiplier >= 1 ? multiplier : 1  // NaN fails the comparison too
        let longest = max(maximum, .zero)
        let first = min(max(initial, .zero), longest)
        return Backoff { failedAttempt in
            var delay = first
            var step = 1
            while step < failedAttempt, growth > 1, delay > .zero, delay < longest {
                // Compared in seconds before it becomes a Duration again, so that no multiplier,
                // however large, overflows.
                delay = seconds(of: delay) * growth < seconds(of: longest) ? delay * growth : longest
                step += 1
            }
            switch jitter {
            case .none:
                return delay
            case .full:
                return delay * Double.random(in: 0...1)
            }
        }
    }

    private static func seconds(of duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
