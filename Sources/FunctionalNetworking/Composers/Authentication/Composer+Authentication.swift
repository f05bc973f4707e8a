import Foundation

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
    ///
    /// - Note: Its place is ``Place/authentication``: below status validation, so a 401 reaches
    ///   it as a response; below retry, so each attempt reads the credential again; below the
    ///   time limit, which so bounds the wait for a refresh too (the caller stops waiting at its
    ///   deadline, while the refresh goes on for the others); above the cache and
    ///   de-duplication, which see the `Authorization` header it adds and so never mix two
    ///   users' requests.
    public static func authenticated(by authenticator: Authenticator) -> Composer {
        Composer(at: .authentication) { next in
            { request in
                guard authenticator.mayAuthenticate(request) else {
                    return try await next(request)
                }
                let stored = authenticator.store.snapshot()
                let first = try await next(authorizing(request, with: stored.authorization))
                guard let refused = first.1 as? HTTPURLResponse, refused.statusCode == 401, stored.credential != nil,
                    authenticator.mayAuthenticate(refused.url ?? request.url),  // a redirect's other origin: not ours to answer
                    let fresh = try await authenticator.refreshed(after: stored.version)
                else {
                    return first
                }
                try Task.checkCancellation()  // a caller that stopped waiting sends nothing more
                let value = fresh.authorizationValue
                return try await next(authorizing(request, with: HTTPFieldSyntax.isValidFieldValue(value) ? value : nil))
            }
        }
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
    /// - Parameters:
    ///   - store: Where the credential found is stored.
    ///   - extract: Returns the credential in a successful (2xx) response, or `nil`; it is not
    ///     called for other statuses. An error it throws fails the request.
    public static func capturingCredential(
        into store: CredentialStore,
        _ extract: @escaping @Sendable (URLRequest, Data, URLResponse) throws -> Credential?
    ) -> Composer {
        Composer(at: .authentication) { next in
            { request in
                let (data, response) = try await next(request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 200
                if HTTPStatusError.successStatuses.contains(status), let credential = try extract(request, data, response) {
                    await store.store(credential)
                }
                return (data, response)
            }
        }
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
