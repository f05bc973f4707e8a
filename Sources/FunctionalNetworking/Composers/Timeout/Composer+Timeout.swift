import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Fails a request with `TimeoutError` when the transport below has not answered within
    /// `duration`, and cancels it.
    ///
    /// ```swift
    /// NetworkSession.shared.transport(with: .retry(), .timeout(after: .seconds(10)))
    /// ```
    ///
    /// The deadline is fixed when the request arrives and measured on `clock`, so tests pass
    /// a `TestClock` and never sleep. A limit longer than a century is a century: Swift's
    /// clocks cannot schedule a later deadline.
    ///
    /// The caller is resumed at the deadline even when the work below ignores cancellation
    /// (a wait for a credential refresh shared with other requests, a token server that never
    /// answers): that work is cancelled and left to end on its own, and what it returns then
    /// is dropped. Cancelling the caller resumes it at once with `CancellationError` and
    /// cancels the work the same way.
    ///
    /// The work below runs in a task of its own, which begins on the caller's thread
    /// (`Task.immediate`, where the platform has it): an answer that comes without suspending
    /// (from a cache, a stub) costs no thread hop and no timer; a timer starts only once the
    /// work waits.
    ///
    /// - Note: Its place is ``Place/timeout``: below ``retry(_:clock:)``, so the limit applies
    ///   to each attempt; above ``authenticated(by:)``, so it bounds a refresh too. For one limit
    ///   on all attempts, bound the caller's future with `Future.timeout(after:clock:)`.
    public static func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        let lock = NSLock()
        let limit = schedulable(duration)
        return Composer(at: .timeout) { next in
            { request in
                let deadline = clock.now.advanced(by: limit)
                return try await DeadlineRace(request, through: next, lock: lock).run(
                    expired: { clock.now >= deadline },
                    timeout: TimeoutError(limit: duration),
                    timer: { { try await clock.sleep(until: deadline, tolerance: nil) } }
                )
            }
        }
    }
}
