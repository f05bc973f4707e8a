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
    /// URLSession.shared.transport(with: .retry(), .timeout(after: .seconds(10)))
    /// ```
    ///
    /// The deadline is fixed when the request arrives and measured on `clock`, so tests pass
    /// a `TestClock` and never sleep.
    ///
    /// The caller is resumed at the deadline even when the work below ignores cancellation
    /// (a wait for a credential refresh shared with other requests, a token server that never
    /// answers): that work is cancelled and left to end on its own, and what it returns then
    /// is dropped. Cancelling the caller resumes it at once with `CancellationError` and
    /// cancels the work the same way.
    ///
    /// - Note: Its place is ``Place/timeout``: below ``retry(_:clock:)``, so the limit applies
    ///   to each attempt; above ``authenticated(by:)``, so it bounds a refresh too. For one limit
    ///   on all attempts, bound the caller's future with `Future.timeout(after:clock:)`.
    public static func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer(at: .timeout) { next in
            { request in
                let deadline = clock.now.advanced(by: duration)
                let race = DeadlineRace<(Data, URLResponse)>()
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        race.start(
                            continuation,
                            work: { try await next(request) },
                            timer: {
                                try await clock.sleep(until: deadline, tolerance: nil)
                                throw TimeoutError(limit: String(describing: duration))
                            }
                        )
                    }
                } onCancel: {
                    race.finish(.failure(CancellationError()))
                }
            }
        }
    }
}
