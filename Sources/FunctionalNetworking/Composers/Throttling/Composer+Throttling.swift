import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Allows at most `maxConcurrent` requests in flight at once, and at most `perHost` to any
    /// one host; the rest wait their turn, first in, first out.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with:
    ///     .retry(),
    ///     .throttled(maxConcurrent: 8, perHost: 4)   // each attempt takes a slot
    /// )
    /// ```
    ///
    /// A slot is freed when the request finishes, fails or is cancelled; a waiting request that
    /// is cancelled leaves the queue at once and throws `CancellationError`. It needs no task:
    /// on the direct path (``NetworkSession/networking(with:)-(Composer...)``) a request that
    /// must wait is started by the request that frees its slot, on that request's thread.
    ///
    /// - Parameters:
    ///   - maxConcurrent: The most requests in flight at once; values below 1 count as 1.
    ///   - perHost: The most requests in flight at once to one host (host name and port), or
    ///     `nil` for no limit per host.
    /// - Returns: The composer.
    /// - Note: Each composer made by this factory has its own slots: the limit holds for the
    ///   transports built from that one value. Its place is ``Place/throttling``: below retry,
    ///   so that a back-off wait holds no slot, and below the cache and de-duplication, so that
    ///   answers served without the network do not wait. Use ``throttled(by:)`` to share one
    ///   limit between transports.
    public static func throttled(maxConcurrent: Int, perHost: Int? = nil) -> Composer {
        throttled(by: RequestThrottle(maxConcurrent: maxConcurrent, perHost: perHost))
    }

    /// Limits the requests in flight with a throttle you hold, to share its limits between
    /// transports or to see how many requests wait.
    ///
    /// ```swift
    /// let throttle = RequestThrottle(maxConcurrent: 8)
    /// let transport = NetworkSession.shared.transport(with: .throttled(by: throttle))
    /// ```
    ///
    /// - Parameter throttle: The limits and the queue.
    /// - Returns: The composer.
    /// - Note: The order rules of ``throttled(maxConcurrent:perHost:)`` apply.
    public static func throttled(by throttle: RequestThrottle) -> Composer {
        Composer(
            at: .throttling,
            { next in
                { request in try await throttle.send(request, through: next) }
            },
            direct: { next in
                { request, context in throttle.send(request, context: context, through: next) }
            }
        )
    }
}
