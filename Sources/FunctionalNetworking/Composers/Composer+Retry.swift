import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Retries failed requests as `policy` allows, waiting on `clock` between attempts.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with:
    ///     .retry(),              // 3 attempts of idempotent requests, backoff with jitter
    ///     .validatingStatus()    // below retry: a 503 becomes an error retry can see
    /// )
    /// ```
    ///
    /// An attempt is retried when the request's method is allowed and the attempt threw a
    /// retryable error (``RetryPolicy/isRetryable(_:)``) or answered with a retryable status.
    /// The wait is the server's `Retry-After` (seconds or HTTP date, capped), or else the
    /// policy's backoff. When the last allowed attempt fails with an error, the request fails
    /// with ``RetriesExhausted`` carrying the attempt count and that error; when it answers
    /// with a retryable status, that response is returned as it is.
    ///
    /// - Note: Cancelling the caller during a wait stops at once with `CancellationError`.
    ///   Composers listed above `retry` see one request; those below see every attempt.
    public static func retry(
        _ policy: RetryPolicy = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer { next in
            { request in
                guard policy.allowsRetry(of: request), policy.maxAttempts > 1 else {
                    return try await next(request)
                }
                var attempt = 1
                while true {
                    let wait: Duration
                    do {
                        let (data, response) = try await next(request)
                        guard let http = response as? HTTPURLResponse,
                            policy.statuses.contains(http.statusCode), attempt < policy.maxAttempts
                        else {
                            return (data, response)
                        }
                        let headers = HTTPStatusError(response: http, body: data).headers
                        wait = policy.retryAfter(in: headers) ?? policy.backoff.delay(afterAttempt: attempt)
                    } catch {
                        guard policy.isRetryable(error) else { throw error }
                        guard attempt < policy.maxAttempts else {
                            throw RetriesExhausted(attempts: attempt, lastError: error)
                        }
                        let headers = (error as? HTTPStatusError)?.headers ?? [:]
                        wait = policy.retryAfter(in: headers) ?? policy.backoff.delay(afterAttempt: attempt)
                    }
                    let deadline = clock.now.advanced(by: wait)
                    try await clock.sleep(until: deadline, tolerance: nil)
                    attempt += 1
                }
            }
        }
    }
}
