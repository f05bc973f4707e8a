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
/// let transport = URLSession.shared.transport(with: .authenticated(by: auth), .retry())
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
    func mayAuthenticate(_ request: URLRequest) -> Bool {
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
