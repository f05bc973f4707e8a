import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Attaches the stored credential to requests for allowed origins, and on 401 refreshes it
    /// once — for every request that met the 401 at the same time — and retries.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with:
    ///     .authenticated(by: auth),
    ///     .retry(),
    ///     .validatingStatus()
    /// )
    /// ```
    ///
    /// - A request whose credential is older than the stored one (someone refreshed since it
    ///   left) is retried with the newer one, without another refresh.
    /// - A failed refresh fails every waiting request with
    ///   ``AuthenticationError/refreshFailed(_:)``; too many refreshes in the window fail with
    ///   ``AuthenticationError/refreshLimitReached(_:within:)``.
    /// - Requests for other origins are sent without the credential, and the transport drops
    ///   it from any redirect that leaves the origin (see ``TransportPolicy``).
    /// - Only a 401 from an allowed origin triggers a refresh: a 401 whose response URL is on
    ///   another origin (an allowed API redirected the request there) is returned as it came,
    ///   and the stored credential is kept, since that origin never saw it.
    /// - Each request is retried at most once after a refresh; a second 401 is returned as it
    ///   came (and ``validatingStatus(_:)`` above turns it into an ``HTTPStatusError``).
    /// - A request sent while signed out (no credential) never triggers a refresh, and a
    ///   refresh never undoes a sign-out or another sign-in: the refreshed credential is kept
    ///   only if the store still holds the one the refresh began from. The requests that
    ///   waited for an abandoned refresh go out with what the store holds then, or return
    ///   their 401 when it holds nothing.
    /// - The credential is read without waiting (the store keeps a copy under a lock), so over
    ///   the package's session (``NetworkSession/networking(with:)-(Composer...)``) a request
    ///   needs no task; a refresh, and the wait for it, run in a task of their own.
    ///
    /// - Note: Its place is ``Place/authentication``: below status validation, so a 401 reaches
    ///   it as a response; below retry, so each attempt reads the credential again; below the
    ///   time limit, which so bounds the wait for a refresh too (the caller stops waiting at its
    ///   deadline, while the refresh goes on for the others); above the cache and
    ///   de-duplication, which see the `Authorization` header it adds and so never mix two
    ///   users' requests.
    public static func authenticated(by authenticator: Authenticator) -> Composer {
        Composer(
            at: .authentication,
            { next in
                { request in
                    guard authenticator.mayAuthenticate(request) else {
                        return try await next(request)
                    }
                    let stored = authenticator.store.snapshot()
                    let first = try await next(authorizing(request, with: stored.authorization))
                    guard authenticator.isChallenge(first.1, to: request, sentWith: stored),
                        let fresh = try await authenticator.refreshed(after: stored.version)
                    else {
                        return first
                    }
                    try Task.checkCancellation()  // a caller that stopped waiting sends nothing more
                    return try await next(authorizing(request, with: fresh))
                }
            },
            direct: { next in
                { request, context in
                    guard authenticator.mayAuthenticate(request) else {
                        return next(request, context)
                    }
                    let stored = authenticator.store.snapshot()
                    return next(authorizing(request, with: stored.authorization), context).flatMap { first in
                        guard authenticator.isChallenge(first.1, to: request, sentWith: stored) else {
                            return Future(value: first)
                        }
                        // The rare path: the refresh is shared and asynchronous. A caller that
                        // stopped waiting sends nothing more (`flatMap` does not run then).
                        return Future.startedImmediately { try await authenticator.refreshed(after: stored.version) }
                            .flatMap { fresh in
                                guard let fresh else { return Future(value: first) }
                                return next(authorizing(request, with: fresh), context)
                            }
                    }
                }
            }
        )
    }

    /// Stores the credential that `extract` finds in a response (a login's token, say). Its
    /// place is ``Place/authentication``.
    ///
    /// ```swift
    /// .capturingCredential(into: store) { request, data, _ in
    ///     guard request.url?.path == "/login" else { return nil }
    ///     return .bearer(try JSONDecoder().decode(Login.self, from: data).token)
    /// }
    /// ```
    ///
    /// A response with no credential in it needs no task; storing one found runs in a task of
    /// its own.
    ///
    /// - Parameters:
    ///   - store: Where the credential found is stored.
    ///   - extract: Returns the credential in a successful (2xx) response, or `nil`; it is not
    ///     called for other statuses. An error it throws fails the request.
    public static func capturingCredential(
        into store: CredentialStore,
        _ extract: @escaping @Sendable (URLRequest, Data, URLResponse) throws -> Credential?
    ) -> Composer {
        Composer(
            at: .authentication,
            { next in
                { request in
                    let (data, response) = try await next(request)
                    if let credential = try captured(by: extract, from: request, data, response) {
                        await store.store(credential)
                    }
                    return (data, response)
                }
            },
            direct: { next in
                { request, context in
                    next(request, context).flatMap { data, response in
                        guard let credential = try captured(by: extract, from: request, data, response) else {
                            return Future(value: (data, response))
                        }
                        return Future.startedImmediately {
                            await store.store(credential)
                            return (data, response)
                        }
                    }
                }
            }
        )
    }

    /// The credential `extract` finds in the answer to `request`, if it was successful (2xx).
    private static func captured(
        by extract: @Sendable (URLRequest, Data, URLResponse) throws -> Credential?,
        from request: URLRequest, _ data: Data, _ response: URLResponse
    ) throws -> Credential? {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        guard HTTPStatusError.successStatuses.contains(status) else { return nil }
        return try extract(request, data, response)
    }

    /// `request` with `fresh`'s `Authorization` value, or unchanged when that value could not
    /// be sent (a control character in the secret: it is never put on the wire).
    static func authorizing(_ request: URLRequest, with fresh: Credential) -> URLRequest {
        let value = fresh.authorizationValue
        return authorizing(request, with: HTTPFieldSyntax.isValidFieldValue(value) ? value : nil)
    }

    /// `request` with `Authorization: value`, or unchanged when `value` is `nil`.
    ///
    /// The header dictionary is set whole: on Linux, `URLRequest.setValue(_:forHTTPHeaderField:)`
    /// also capitalises the name and checks the value character by character, which took more
    /// time than the rest of the composer (the value was checked once, when it was made).
    static func authorizing(_ request: URLRequest, with value: String?) -> URLRequest {
        guard let value else { return request }
        var request = request
        var fields = request.allHTTPHeaderFields ?? [:]
        if fields["Authorization"] == nil {
            // One value per name, whatever its case: the caller's own spelling goes.
            for name in fields.keys where name.utf8.count == 13 && name.lowercased() == "authorization" {
                fields[name] = nil
            }
        }
        fields["Authorization"] = value
        request.allHTTPHeaderFields = fields
        return request
    }
}
