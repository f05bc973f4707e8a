import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What ``Composer/retry(_:clock:)`` retries, how often, and how long it waits.
///
/// The defaults are safe for a server under stress: only idempotent methods, only statuses
/// that mean "try again later" (408, 429, 500, 502, 503, 504), only transient transport errors,
/// at most 3 attempts, exponential backoff with full jitter, and `Retry-After` honoured up to
/// a minute. A cancellation, a bad URL or a decoding error is never retried.
///
/// ```swift
/// var policy = RetryPolicy.default
/// policy.maxAttempts = 5
/// policy.backoff = .exponential(initial: .milliseconds(500), maximum: .seconds(20))
/// let transport = NetworkSession.shared.transport(with: .retry(policy), .validatingStatus())
/// ```
public struct RetryPolicy: Sendable {
    /// The most attempts in all, the first included; 1 or less means one attempt, no retry.
    public var maxAttempts: Int
    /// The wait before each retry, unless the server says otherwise with `Retry-After`.
    public var backoff: Backoff
    /// The methods that may be retried; the idempotent ones by default (a `POST` is not).
    public var methods: Set<HTTPMethod>
    /// The statuses that mean "try again".
    public var statuses: Set<Int>
    /// The transport errors that are worth another attempt, by `URLError` code: a
    /// ``TransportError/networkFailure(_:url:timeout:attempts:)`` with one of them, or the bare
    /// `URLError` a transport of your own throws.
    public var errorCodes: Set<URLError.Code>
    /// The longest wait a `Retry-After` header can ask for; longer requests are cut to this.
    public var maximumRetryAfter: Duration
    /// The current date, for `Retry-After` given as an HTTP date; a test fixes it.
    var now: @Sendable () -> Date
    /// Marks errors of your own as worth another attempt (checked after the built-in rules).
    public var retriesError: (@Sendable (any Error) -> Bool)?

    /// Creates a policy; every parameter defaults to ``default``'s value.
    public init(
        maxAttempts: Int = 3,
        backoff: Backoff = .exponential(initial: .milliseconds(200), maximum: .seconds(10)),
        methods: Set<HTTPMethod> = [.get, .head, .options, .put, .delete, .trace],
        statuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        errorCodes: Set<URLError.Code> = [
            .timedOut, .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet,
            .cannotFindHost, .dnsLookupFailed,
        ],
        maximumRetryAfter: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() },
        retriesError: (@Sendable (any Error) -> Bool)? = nil
    ) {
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.methods = methods
        self.statuses = statuses
        self.errorCodes = errorCodes
        self.maximumRetryAfter = maximumRetryAfter
        self.now = now
        self.retriesError = retriesError
    }

    /// Three attempts of idempotent requests, for 408, 429, 5xx-unavailable statuses and
    /// transient transport errors.
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// Whether `request` may be retried at all (its method).
    func allowsRetry(of request: URLRequest) -> Bool {
        methods.contains(RequestKey.method(of: request))
    }

    /// Whether `error` is worth another attempt.
    func isRetryable(_ error: any Error) -> Bool {
        switch error {
        case let urlError as URLError:
            return errorCodes.contains(urlError.code)
        case let transportError as TransportError where transportError.urlError != nil:
            return transportError.urlError.map { errorCodes.contains($0.code) } ?? false
        case is TimeoutError:
            return errorCodes.contains(.timedOut)  // the timeout composer's, like URLError.timedOut
        case is CancellationError:
            return false
        default:
            return retriesError?(error) ?? false  // invalid URLs, decoding failures, unknown errors
        }
    }

    /// The wait the server asked for in `headers`' `Retry-After` (seconds or an HTTP date),
    /// capped by ``maximumRetryAfter``; `nil` when it asked for nothing readable.
    func retryAfter(in headers: HTTPHeaders) -> Duration? {
        guard let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        let wait: Duration
        if let seconds = Int(value), seconds >= 0 {
            wait = .seconds(seconds)
        } else if let date = HTTPDate.parse(value) {
            let seconds = date.timeIntervalSince(now())
            wait = seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : .zero
        } else {
            return nil
        }
        return min(wait, maximumRetryAfter)
    }
}

// MARK: - Deciding after an attempt

extension RetryPolicy {
    /// The wait before the next attempt when attempt `attempt` answered with `response` (and
    /// `body`): the server's `Retry-After`, or the backoff; `nil` when that answer is the call's
    /// (a status not to retry, or the last attempt).
    func wait(afterAnswer response: URLResponse, _ body: Data, attempt: Int) -> Duration? {
        guard let http = response as? HTTPURLResponse, statuses.contains(http.statusCode), attempt < maxAttempts else {
            return nil
        }
        let headers = HTTPStatusError(response: http, body: body).headers
        return retryAfter(in: headers) ?? backoff.delay(afterAttempt: attempt)
    }

    /// The wait before the next attempt when attempt `attempt` threw `error`.
    ///
    /// - Throws: `error`, saying how many attempts were made (see ``CallRecord``), when it is
    ///   not worth another attempt or this was the last.
    func wait(afterFailure error: any Error, attempt: Int) throws -> Duration {
        guard attempt < maxAttempts, isRetryable(error) else {
            throw CallRecord.annotate(error, attempts: attempt)
        }
        return backoff.delay(afterAttempt: attempt)
    }
}
