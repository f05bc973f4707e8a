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
    /// - Note: Below ``retry(_:clock:)`` the limit applies to each attempt; above it, to all
    ///   attempts together.
    public static func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer { next in
            { request in
                let deadline = clock.now.advanced(by: duration)
                return try await withThrowingTaskGroup(of: (Data, URLResponse).self) { group in
                    group.addTask { try await next(request) }
                    group.addTask {
                        try await clock.sleep(until: deadline, tolerance: nil)
                        throw TimeoutError(limit: String(describing: duration))
                    }
                    defer { group.cancelAll() }
                    guard let first = try await group.next() else {
                        throw CancellationError()
                    }
                    return first
                }
            }
        }
    }

    /// Holds every request back for `duration` before passing it on.
    ///
    /// ```swift
    /// let slowNetwork = URLSession.shared.transport(with: .delayed(by: .milliseconds(300)))
    /// ```
    ///
    /// Cancelling the caller during the wait stops it at once with `CancellationError`.
    public static func delayed(
        by duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer { next in
            { request in
                let deadline = clock.now.advanced(by: duration)
                try await clock.sleep(until: deadline, tolerance: nil)
                return try await next(request)
            }
        }
    }
}
