import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Retries failed requests as `policy` allows, waiting on `clock` between attempts.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with: .retry(), .validatingStatus())
    /// // 3 attempts of idempotent requests, backoff with jitter; a 503 is retried by its status
    /// ```
    ///
    /// An attempt is retried when the request's method is allowed and the attempt answered
    /// with one of the policy's statuses, or threw one of its transport errors (or an error
    /// that ``RetryPolicy/retriesError`` accepts). The wait is the server's `Retry-After`
    /// (seconds or HTTP date, capped), or else the policy's backoff. When the last allowed
    /// attempt answers with a retryable status, that response is returned as it is (and
    /// ``validatingStatus(_:)`` above turns it into an ``HTTPStatusError``); when it throws,
    /// its error is thrown as it is. So a caller meets the same error, of the same type, with or
    /// without retry; but an ``HTTPStatusError`` or a
    /// ``TransportError/networkFailure(_:url:timeout:attempts:)`` of a retried call says how many
    /// attempts were made (its `attempts`, and "… after 3 attempts" in its description).
    ///
    /// - Note: Its place is ``Place/retry``: below status validation, so it sees a status as a
    ///   response; above authentication, so each attempt reads the credential again; above
    ///   the time limit, so the limit applies to each attempt. Cancelling the caller during a
    ///   wait stops at once with `CancellationError`.
    /// - Note: The first attempt goes out at once, with no task: over the package's session
    ///   (``NetworkSession/networking(with:)-(Composer...)``) a call needs a task only for a
    ///   wait between attempts.
    public static func retry(
        _ policy: RetryPolicy = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer(
            at: .retry,
            { next in
                { request in
                    guard policy.allowsRetry(of: request), policy.maxAttempts > 1 else {
                        return try await next(request)
                    }
                    var attempt = 1
                    while true {
                        let wait: Duration
                        RequestContext.current.record?.noteAttempt(attempt)
                        do {
                            let (data, response) = try await next(request)
                            guard let retryAfter = policy.wait(afterAnswer: response, data, attempt: attempt) else {
                                return (data, response)
                            }
                            wait = retryAfter
                        } catch {
                            wait = try policy.wait(afterFailure: error, attempt: attempt)
                        }
                        let deadline = clock.now.advanced(by: schedulable(wait))
                        try await clock.sleep(until: deadline, tolerance: nil)
                        attempt += 1
                    }
                }
            },
            direct: { next in
                { request, context in
                    guard policy.allowsRetry(of: request), policy.maxAttempts > 1 else {
                        return next(request, context)
                    }
                    return RetriedCall(policy: policy, clock: clock, next: next, request: request, context: context).start()
                }
            }
        )
    }
}
