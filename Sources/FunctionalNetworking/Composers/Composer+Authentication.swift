import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``Composer/authenticated(by:)`` authenticates: where the credential lives, which
/// origins may receive it, and how to get a fresh one.
///
/// ```swift
/// let store = CredentialStore(.bearer(savedToken))
/// let auth = Authenticator(
///     store: store,
///     allowedOrigins: [Origin(url: apiURL)!],
///     refresh: { _ in .bearer(try await renewToken()) }
/// )
/// let transport = URLSession.redirectGuarded().transport(with: .authenticated(by: auth), .retry())
/// ```
public struct Authenticator: Sendable {
    /// Where the credential lives.
    public let store: CredentialStore
    /// The only origins that ever receive the credential.
    public let allowedOrigins: Set<Origin>
    /// Makes a fresh credential from the stale one (or `nil`); `nil` means a 401 is final.
    public let refresh: (@Sendable (Credential?) async throws -> Credential)?
    /// The most refreshes allowed within ``refreshWindow``.
    public let refreshLimit: Int
    /// The window that ``refreshLimit`` counts over.
    public let refreshWindow: Duration
    private let elapsed: @Sendable () -> Duration

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - store: Where the credential lives.
    ///   - allowedOrigins: The only origins (scheme, host, port) that receive the credential;
    ///     a request to any other origin, or a redirect to one, goes without it.
    ///   - refresh: Makes a fresh credential when the server answers 401; `nil` for none.
    ///   - refreshLimit: The most refreshes within `refreshWindow` (3 by default), so that a
    ///     server that always answers 401 cannot cause a refresh storm.
    ///   - refreshWindow: The window the limit counts over (a minute by default).
    ///   - clock: Measures the window; a test passes a `TestClock`.
    public init(
        store: CredentialStore,
        allowedOrigins: Set<Origin>,
        refresh: (@Sendable (Credential?) async throws -> Credential)? = nil,
        refreshLimit: Int = 3,
        refreshWindow: Duration = .seconds(60),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        self.allowedOrigins = allowedOrigins
        self.refresh = refresh
        self.refreshLimit = refreshLimit
        self.refreshWindow = refreshWindow
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }

    /// Whether `request` goes to an allowed origin.
    public func mayAuthenticate(_ request: URLRequest) -> Bool {
        Origin(url: request.url).map(allowedOrigins.contains) ?? false
    }

    /// A fresh credential after `failedVersion` was refused.
    func refreshed(after failedVersion: Int) async throws -> Credential? {
        guard let refresh else { return nil }
        return try await store.credential(
            after: failedVersion, refresh: refresh, limit: refreshLimit, window: refreshWindow, now: elapsed()
        )
    }
}

extension Composer {
    /// Attaches the stored credential to requests for allowed origins, and on 401 refreshes it
    /// once — for every request that met the 401 at the same time — and retries.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with:
    ///     .logged(to: log),
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
    /// - Requests for other origins are sent without the credential. Send them through a
    ///   session that does not carry credentials across origins on redirect:
    ///   `URLSession.redirectGuarded(configuration:)` on every platform (on Apple platforms
    ///   any session's `URLSession.transport` does it too).
    /// - Each request is retried at most once after a refresh; a second 401 is returned (or
    ///   thrown, below ``validatingStatus(_:)``) as it came.
    /// - A request sent while signed out (no credential) never triggers a refresh, and a
    ///   refresh never undoes a sign-out that happened while a request was out.
    public static func authenticated(by authenticator: Authenticator) -> Composer {
        Composer { next in
            { request in
                guard authenticator.mayAuthenticate(request) else {
                    return try await next(request)
                }
                let (credential, version) = await authenticator.store.snapshot()
                let first = await attempt(request, with: credential, next)
                guard first.isUnauthorized, credential != nil,
                    let fresh = try await authenticator.refreshed(after: version)
                else {
                    return try first.get()
                }
                return try await attempt(request, with: fresh, next).get()
            }
        }
    }

    /// Stores the credential that `extract` finds in a response (a login's token, say), like
    /// SwiftyNetworking's `afterAuthorization`.
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
    ///   - extract: Returns the credential in a successful response, or `nil`; an error it
    ///     throws fails the request.
    public static func capturingCredential(
        into store: CredentialStore,
        _ extract: @escaping @Sendable (URLRequest, Data, URLResponse) throws -> Credential?
    ) -> Composer {
        Composer { next in
            { request in
                let (data, response) = try await next(request)
                if let credential = try extract(request, data, response) {
                    await store.store(credential)
                }
                return (data, response)
            }
        }
    }

    /// Sends `request` with `credential` (if any), capturing the outcome.
    private static func attempt(
        _ request: URLRequest,
        with credential: Credential?,
        _ next: Transport
    ) async -> AttemptOutcome {
        var request = request
        if let credential {
            request.setValue(credential.authorizationValue, forHTTPHeaderField: "Authorization")
        }
        do {
            return .answered(try await next(request))
        } catch {
            return .failed(error)
        }
    }
}

/// One authenticated attempt's outcome.
private enum AttemptOutcome {
    case answered((Data, URLResponse))
    case failed(any Error)

    var isUnauthorized: Bool {
        switch self {
        case .answered(let (_, response)):
            (response as? HTTPURLResponse)?.statusCode == 401
        case .failed(let error):
            (error as? HTTPStatusError)?.status == 401
        }
    }

    func get() throws -> (Data, URLResponse) {
        switch self {
        case .answered(let pair): return pair
        case .failed(let error): throw error
        }
    }
}
