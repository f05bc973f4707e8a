import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Holds every request back for `duration` before passing it on.
    ///
    /// ```swift
    /// let slowNetwork = NetworkSession.shared.transport(with: .delayed(by: .milliseconds(300)))
    /// ```
    ///
    /// Cancelling the caller during the wait stops it at once with `CancellationError`. Its
    /// place is ``Place/delay``, right above the session, as a slow network would be. A wait
    /// longer than a century is a century: Swift's clocks cannot schedule a later deadline.
    public static func delayed(
        by duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        let wait = schedulable(duration)
        return Composer(at: .delay) { next in
            { request in
                let deadline = clock.now.advanced(by: wait)
                try await clock.sleep(until: deadline, tolerance: nil)
                return try await next(request)
            }
        }
    }
}
