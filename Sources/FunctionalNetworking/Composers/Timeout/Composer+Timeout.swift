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
    /// One timer serves every request of the composer (it sleeps until the earliest deadline):
    /// a request costs an entry in its list, not a timer of its own. An answer that comes
    /// without waiting (from a cache, a stub) is not watched at all. Over the package's session,
    /// in a stack whose composers below need no task (``NetworkSession/networking(with:)-(Composer...)``),
    /// the request needs no task either; over a transport that is awaited, the work below runs
    /// in a task of its own, which begins on the caller's thread (`Task.immediate`, where the
    /// platform has it), so that the deadline holds even when that work ignores cancellation.
    ///
    /// - Note: Its place is ``Place/timeout``: below ``retry(_:clock:)``, so the limit applies
    ///   to each attempt; above ``authenticated(by:)``, so it bounds a refresh too. For one limit
    ///   on all attempts, bound the caller's future with `Future.timeout(after:clock:)`.
    public static func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        let owner = DeadlineWatchdog.Owner(clock: clock)
        let limit = schedulable(duration)
        let direct: @Sendable (@escaping DirectTransport) -> DirectTransport = { next in
            { request, context in
                let deadline = clock.now.advanced(by: limit)
                return owner.watchdog.bound(next(request, context), until: deadline, limit: duration)
            }
        }
        return Composer(
            at: .timeout,
            { next in TransportBridge.awaiting(direct(TransportBridge.started(next))) },
            direct: direct
        )
    }
}
