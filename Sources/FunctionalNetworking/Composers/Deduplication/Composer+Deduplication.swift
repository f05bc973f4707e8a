import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Lets concurrent identical requests share one upstream call.
    ///
    /// While a request is in flight, an identical one (same method, URL, body, headers that
    /// matter and credentials) does not go upstream again: it waits for the first and gets the
    /// same data and response, or the same error. Only safe methods (`GET`, `HEAD`, `OPTIONS`,
    /// `TRACE`) are merged unless you opt in; two requests with different bodies, or different
    /// credentials, never are (see ``RequestDeduplicator``).
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with:
    ///     .deduplicated(matching: .all(except: ["X-Request-ID"])),
    ///     .authenticated(by: auth),
    ///     .retry()
    /// )
    /// // Ten views asking for the same product at once make one request.
    /// ```
    ///
    /// The first of the identical requests makes the call itself, so a request with nothing to
    /// share costs no task and no thread hop; it needs no task at all on the direct path
    /// (``NetworkSession/networking(with:)-(Composer...)``). Cancelling a caller
    /// that waits for another's call resumes it at once with `CancellationError`; the call
    /// goes on for the others. Cancelling the caller that makes the call cancels it; if it
    /// then fails, the callers waiting for it make it again (one of them goes upstream, the
    /// others wait for that one), so no caller gets a cancellation it did not ask for.
    ///
    /// - Parameters:
    ///   - headers: The headers that make two requests different; all of them by default.
    ///   - includingUnsafeMethods: Whether to merge requests with unsafe methods too (only
    ///     when method, URL, headers and body are all equal); `false` by default.
    /// - Returns: The composer.
    /// - Note: Its place is ``Place/deduplication``: below authentication and your own
    ///   composers, so it sees the credential each request carries (above them, two users'
    ///   requests would look alike); below the cache; above throttling, so merged requests take
    ///   one slot. Each composer made by this factory has its own table of calls; use
    ///   ``deduplicated(by:)`` to share one between transports.
    public static func deduplicated(
        matching headers: HeaderSelection = .all,
        includingUnsafeMethods: Bool = false
    ) -> Composer {
        let deduplicator = RequestDeduplicator(matching: headers, includingUnsafeMethods: includingUnsafeMethods)
        return deduplicated(by: deduplicator)
    }

    /// Lets concurrent identical requests share one upstream call, using a deduplicator you
    /// hold (to share it between transports, or to see how many calls are in flight).
    ///
    /// ```swift
    /// let deduplicator = RequestDeduplicator()
    /// let transport = NetworkSession.shared.transport(with: .deduplicated(by: deduplicator))
    /// ```
    ///
    /// - Parameter deduplicator: The table of calls in flight, and its rules.
    /// - Returns: The composer.
    /// - Note: The order rules of ``deduplicated(matching:includingUnsafeMethods:)`` apply.
    public static func deduplicated(by deduplicator: RequestDeduplicator) -> Composer {
        Composer(
            at: .deduplication,
            { next in
                { request in try await deduplicator.send(request, through: next) }
            },
            direct: { next in
                { request, context in deduplicator.send(request, context: context, through: next) }
            }
        )
    }
}
