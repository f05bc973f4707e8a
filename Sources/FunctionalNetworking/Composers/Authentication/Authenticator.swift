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
/// let transport = NetworkSession.shared.transport(with: .authenticated(by: auth), .retry())
/// ```
public struct Authenticator: Sendable {
    /// Where the credential lives.
    public let store: CredentialStore
    /// The only origins that ever receive the credential, and the only ones whose 401 triggers
    /// a refresh.
    public let allowedOrigins: Set<Origin>
    /// Makes a fresh credential from the stale one (or `nil`); `nil` means a 401 is final.
    public let refresh: (@Sendable (Credential?) async throws -> Credential)?
    /// The most refreshes allowed within ``refreshWindow``.
    public let refreshLimit: Int
    /// The window that ``refreshLimit`` counts over.
    public let refreshWindow: Duration
    private let elapsed: @Sendable () -> Duration
    /// How the allowed origins begin a URL in their usual spelling (`https://api.shop.example`,
    /// and with the port when it is the scheme's default, `https://api.shop.example:443`), so
    /// that most requests are checked without parsing their URL.
    private let originPrefixes: [String]

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - store: Where the credential lives.
    ///   - allowedOrigins: The only origins (scheme, host, port) that receive the credential;
    ///     a request to any other origin, or a redirect to one, goes without it, and only a 401
    ///     from one of them triggers a refresh.
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
        originPrefixes = allowedOrigins.count > Self.mostPrefixes ? [] : allowedOrigins.flatMap(Self.prefixes)
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }

    /// Whether `request` goes to an allowed origin.
    ///
    /// A URL that begins with an allowed origin's usual spelling followed by `/`, `?`, `#` or
    /// nothing is on that origin; any other URL (another origin, upper case, a user name…) is
    /// parsed into an ``Origin`` and looked up.
    func mayAuthenticate(_ request: URLRequest) -> Bool {
        mayAuthenticate(request.url)
    }

    /// Whether `url` is on an allowed origin; the same test as for a request.
    func mayAuthenticate(_ url: URL?) -> Bool {
        guard let url else { return false }
        if !originPrefixes.isEmpty {
            var text = url.absoluteString
            let onOrigin = text.withUTF8 { text in
                originPrefixes.contains { prefix in
                    var prefix = prefix
                    return prefix.withUTF8 { Self.text(text, beginsWithOrigin: $0) }
                }
            }
            if onOrigin {
                return true
            }
        }
        return Origin(url: url).map(allowedOrigins.contains) ?? false
    }

    /// Above this many allowed origins, every URL is parsed (a set look-up beats the scan).
    private static let mostPrefixes = 8

    /// The spellings of `origin` that ``mayAuthenticate(_:)`` looks for.
    private static func prefixes(of origin: Origin) -> [String] {
        let defaultPort = origin.scheme == "https" ? 443 : origin.scheme == "http" ? 80 : -1
        var prefixes: [String] = []
        if origin.port == defaultPort {
            prefixes.append("\(origin.scheme)://\(origin.host)")
        }
        if origin.port >= 0 {
            prefixes.append("\(origin.scheme)://\(origin.host):\(origin.port)")
        }
        return prefixes
    }

    /// Whether `text` begins with `prefix` and the origin ends there.
    private static func text(_ text: UnsafeBufferPointer<UInt8>, beginsWithOrigin prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count >= prefix.count, zip(text, prefix).allSatisfy({ $0 == $1 }) else { return false }
        guard text.count > prefix.count else { return true }
        switch text[prefix.count] {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
        default: return false
        }
    }

    /// Whether `response`, the answer to `request` sent with `stored`, asks for a refresh: a 401
    /// to a request that carried a credential, from an allowed origin (a redirect's other origin
    /// never saw the credential: its 401 is not ours to answer).
    func isChallenge(_ response: URLResponse, to request: URLRequest, sentWith stored: CurrentCredential.Snapshot) -> Bool {
        guard let refused = response as? HTTPURLResponse, refused.statusCode == 401, stored.credential != nil else {
            return false
        }
        return mayAuthenticate(refused.url ?? request.url)
    }

    /// A fresh credential after `failedVersion` was refused.
    func refreshed(after failedVersion: Int) async throws -> Credential? {
        guard let refresh else { return nil }
        return try await store.credential(
            after: failedVersion, refresh: refresh, limit: refreshLimit, window: refreshWindow, now: elapsed()
        )
    }
}
