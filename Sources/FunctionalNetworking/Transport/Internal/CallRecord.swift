import Foundation

/// What the package learned about one call while it ran, so that the call's final error can
/// say it: how many attempts ``Composer/retry(_:clock:)`` made, and a redirect to another
/// origin that dropped the request's credentials. Set in ``RequestContext/record`` by each
/// entry point (and by ``Composer/validatingStatus(_:)`` when no entry point did).
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class CallRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var attemptCount = 1
    private var dropped: CredentialsDroppedByRedirect?

    /// Records that attempt `number` (from 1) is being made.
    func noteAttempt(_ number: Int) {
        lock.withLock { attemptCount = max(attemptCount, number) }
    }

    /// Records a redirect that dropped the request's credentials.
    func noteDropped(_ credentials: CredentialsDroppedByRedirect) {
        lock.withLock { dropped = credentials }
    }

    /// How many attempts were made: 1 unless a retry made more.
    var attempts: Int {
        lock.withLock { attemptCount }
    }

    /// The last redirect that dropped the request's credentials, if any.
    var droppedCredentials: CredentialsDroppedByRedirect? {
        lock.withLock { dropped }
    }

    /// `error` with what this record knows: the attempts of an ``HTTPStatusError`` or a
    /// ``TransportError/networkFailure(_:url:timeout:attempts:)``, and the dropped credentials
    /// of a 401 or 403 from the origin they were dropped for. Any other error as it is.
    func annotate(_ error: any Error) -> any Error {
        Self.annotate(error, attempts: attempts, dropped: droppedCredentials)
    }

    /// `error` with `attempts` and `dropped`, as ``annotate(_:)`` describes.
    static func annotate(_ error: any Error, attempts: Int, dropped: CredentialsDroppedByRedirect? = nil) -> any Error {
        switch error {
        case var status as HTTPStatusError:
            status.attempts = max(status.attempts, attempts)
            if status.credentialsDroppedByRedirect == nil, let dropped, status.status == 401 || status.status == 403,
                status.url.map({ RedirectPolicy.origin(of: $0) == dropped.to }) ?? true
            {
                status.credentialsDroppedByRedirect = dropped
            }
            return status
        case TransportError.networkFailure(let urlError, let url, let timeout, let made):
            return TransportError.networkFailure(urlError, url: url, timeout: timeout, attempts: max(made, attempts))
        default:
            return error
        }
    }
}
