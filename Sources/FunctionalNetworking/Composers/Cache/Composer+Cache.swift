import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Answers repeated `GET` requests from memory while their responses are fresh.
    ///
    /// ```swift
    /// let cache = ResponseCache(maxEntries: 500)
    /// let transport = NetworkSession.shared.transport(with:
    ///     .cached(in: cache),
    ///     .authenticated(by: auth),   // placed above the cache, which so sees the credential
    ///     .retry()
    /// )
    /// ```
    ///
    /// Only `GET` requests with 2xx responses that say how long they are fresh are kept (or
    /// any 2xx, given heuristic freshness); a stale one with an `ETag` or `Last-Modified` is
    /// revalidated and served again on a `304`. See ``ResponseCache`` for the rules.
    ///
    /// - Parameter cache: The cache, which you can hold to inspect or clear it.
    /// - Returns: The composer.
    /// - Note: Its place is ``Place/cache``: below authentication and your own composers, whose
    ///   credentials and headers it tells users apart by; above de-duplication and throttling,
    ///   whose work a hit skips; below status validation, so it sees every status as a response
    ///   and keeps only a 2xx.
    public static func cached(in cache: ResponseCache) -> Composer {
        Composer(at: .cache) { next in
            { request in try await cache.send(request, through: next) }
        }
    }

    /// Answers repeated `GET` requests from a new in-memory cache while their responses are
    /// fresh; use ``cached(in:)`` to hold the cache.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with: .cached(), .retry())
    /// ```
    ///
    /// - Parameters:
    ///   - heuristicFreshness: How long a response is fresh when it does not say; `nil`, the
    ///     default, keeps no such response.
    ///   - maxEntries: The most responses held at once; 100 by default.
    ///   - maxBytes: The most body bytes held at once; 16 MiB by default, `nil` for no limit.
    ///   - maxEntryBytes: The largest body kept; 1 MiB by default.
    ///   - headers: The request headers that make two requests different entries.
    ///   - credentials: The headers that carry a credential are those it calls secret.
    ///   - cookieStorage: The cookie storage of the session below; `nil` for none.
    ///   - clock: The clock that measures freshness.
    /// - Returns: The composer.
    /// - Note: The order rules of ``cached(in:)`` apply.
    public static func cached(
        heuristicFreshness: Duration? = nil,
        maxEntries: Int = 100,
        maxBytes: Int? = ResponseCache.defaultMaxBytes,
        maxEntryBytes: Int = ResponseCache.defaultMaxEntryBytes,
        varyingOn headers: HeaderSelection = ResponseCache.defaultVaryingHeaders,
        credentials: Redaction = .default,
        cookieStorage: HTTPCookieStorage? = .shared,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        cached(
            in: ResponseCache(
                heuristicFreshness: heuristicFreshness,
                maxEntries: maxEntries,
                maxBytes: maxBytes,
                maxEntryBytes: maxEntryBytes,
                varyingOn: headers,
                credentials: credentials,
                cookieStorage: cookieStorage,
                clock: clock
            ))
    }
}
