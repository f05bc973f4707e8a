import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An in-memory cache of successful `GET` responses: the state behind ``Composer/cached(in:)``.
///
/// It keeps a response when the request is a `GET` and the status is 2xx, for a time to live
/// measured on the clock you give it (so tests use a manual clock), and never holds more than
/// `maxEntries` responses (and, if you say so, `maxBytes` of bodies): when full, it drops the
/// least recently used. A cached answer is the same `(Data, URLResponse)` the transport below
/// returned.
///
/// Requests are matched by value: by method, URL, body and the request headers that matter
/// (by default `Accept`, `Accept-Language` and `Authorization`, so that two users never share
/// an entry), never by the identity of the `URLRequest`.
///
/// ```swift
/// let cache = ResponseCache(timeToLive: .seconds(300), maxEntries: 500, maxBytes: 20_000_000)
/// let transport = URLSession.shared.transport(with: .cached(in: cache), .retry())
/// // …
/// cache.count          // responses held now
/// cache.removeAll()    // after signing out
/// ```
///
/// It honours `Cache-Control` (RFC 9111):
/// - on a response, `no-store` means it is never kept; `max-age=N` sets its time to live to
///   `N` seconds instead of ``timeToLive``; `max-age=0` and `no-cache` mean it is not kept,
///   as it could not be served without revalidation, which this cache does not do;
///   `Vary: *` also means it is not kept.
/// - on a request, `no-store` means it neither reads nor writes the cache; `no-cache` and
///   `max-age=0` mean it is not answered from the cache (its fresh response is kept);
///   `max-age=N` means it accepts only a response stored less than `N` seconds ago.
///
/// `Expires`, `Age`, `Vary` (other than `*`) and revalidation with `ETag` are not used:
/// choose the headers that matter with `varyingOn`.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`; every
///   method may be called from any task or thread.
public final class ResponseCache: @unchecked Sendable {
    /// The request headers a cache tells requests apart by unless told otherwise: `Accept`,
    /// `Accept-Language` and `Authorization`.
    public static let defaultVaryingHeaders: HeaderSelection = .only(["Accept", "Accept-Language", "Authorization"])

    /// How long a response is fresh when it does not say (with `Cache-Control: max-age`).
    public let timeToLive: Duration
    /// The most responses held at once.
    public let maxEntries: Int
    /// The most body bytes held at once, or `nil` for no limit other than ``maxEntries``.
    public let maxBytes: Int?
    /// The request headers that make two requests different entries.
    public let headers: HeaderSelection

    private struct Entry {
        let data: Data
        let response: URLResponse
        /// When it was stored, as time since the cache was made.
        let storedAt: Duration
        /// When it stops being fresh, as time since the cache was made.
        let expiresAt: Duration
    }

    /// The time since the cache was made, on its clock.
    private let elapsed: @Sendable () -> Duration
    private let lock = NSLock()
    private var entries = CacheLRU<DedupeKey, Entry>()
    private var bytes = 0

    /// Creates an empty cache.
    ///
    /// ```swift
    /// let cache = ResponseCache(timeToLive: .seconds(60), maxEntries: 200)
    /// let testCache = ResponseCache(timeToLive: .seconds(60), clock: testClock)
    /// ```
    ///
    /// - Parameters:
    ///   - timeToLive: How long a response is fresh when it does not say; 60 seconds by
    ///     default.
    ///   - maxEntries: The most responses held at once; 100 by default. Values below 0 count
    ///     as 0, which keeps nothing.
    ///   - maxBytes: The most body bytes held at once, or `nil` (the default) for no limit. A
    ///     body larger than this is not kept.
    ///   - headers: The request headers that make two requests different entries;
    ///     ``defaultVaryingHeaders`` by default.
    ///   - clock: The clock that measures the time to live; `ContinuousClock()` by default.
    public init(
        timeToLive: Duration = .seconds(60),
        maxEntries: Int = 100,
        maxBytes: Int? = nil,
        varyingOn headers: HeaderSelection = ResponseCache.defaultVaryingHeaders,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.timeToLive = timeToLive
        self.maxEntries = max(0, maxEntries)
        self.maxBytes = maxBytes.map { max(0, $0) }
        self.headers = headers
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }

    /// The number of responses held, fresh or not yet found expired.
    public var count: Int {
        lock.withLock { entries.count }
    }

    /// The total size of the bodies held, in bytes.
    public var totalBytes: Int {
        lock.withLock { bytes }
    }

    /// The fresh response held for `request`, if any; finding it counts as a use (it becomes
    /// the last to be evicted). An expired response is removed instead.
    ///
    /// ```swift
    /// if let (data, _) = cache.cachedResponse(for: URLRequest(url: productURL)) { show(data) }
    /// ```
    ///
    /// - Parameter request: The request, matched by value.
    /// - Returns: The data and response, or `nil`.
    public func cachedResponse(for request: URLRequest) -> (Data, URLResponse)? {
        guard let key = key(for: request) else { return nil }
        return lookUp(key, maxAge: nil)
    }

    /// Removes the response held for `request`, if any.
    ///
    /// - Parameter request: The request, matched by value.
    public func removeResponse(for request: URLRequest) {
        guard let key = key(for: request) else { return }
        lock.withLock {
            if let removed = entries.removeValue(for: key) {
                bytes -= removed.data.count
            }
        }
    }

    /// Removes every response, for instance when the user signs out.
    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            bytes = 0
        }
    }

    /// Answers `request` from the cache when it can; otherwise sends it through `next` and
    /// keeps the response if it may.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - next: The transport that sends it on a miss.
    /// - Returns: The cached or fresh data and response.
    /// - Throws: What `next` throws; errors are never cached.
    public func send(_ request: URLRequest, through next: @escaping Transport) async throws -> (Data, URLResponse) {
        guard let key = key(for: request) else {
            return try await next(request)
        }
        let directives = CacheDirectives(request.value(forHTTPHeaderField: "Cache-Control"))
        if directives.noStore {
            return try await next(request)
        }
        if !directives.noCache, directives.maxAge != 0, let hit = lookUp(key, maxAge: directives.maxAge) {
            return hit
        }
        let (data, response) = try await next(request)
        store(data, response, for: key)
        return (data, response)
    }

    /// The key of a request this cache may answer: a `GET` that can be compared by value.
    private func key(for request: URLRequest) -> DedupeKey? {
        guard DedupeKey.method(of: request) == .get else { return nil }
        return DedupeKey(request, headers: headers)
    }

    /// The entry for `key` if it is fresh and, given `maxAge` (in seconds), young enough.
    private func lookUp(_ key: DedupeKey, maxAge: Int?) -> (Data, URLResponse)? {
        let now = elapsed()
        return lock.withLock {
            guard let entry = entries.peek(key) else { return nil }
            guard now < entry.expiresAt else {
                entries.removeValue(for: key)
                bytes -= entry.data.count
                return nil
            }
            if let maxAge, now - entry.storedAt >= .seconds(maxAge) {
                return nil
            }
            _ = entries.use(key)
            return (entry.data, entry.response)
        }
    }

    /// Keeps the response if it is a 2xx that may be stored, evicting the least recently used
    /// entries to stay within the limits.
    private func store(_ data: Data, _ response: URLResponse, for key: DedupeKey) {
        guard let http = response as? HTTPURLResponse, HTTPStatusError.successStatuses.contains(http.statusCode) else {
            return
        }
        let directives = CacheDirectives(http.value(forHTTPHeaderField: "Cache-Control"))
        let varyAll =
            http.value(forHTTPHeaderField: "Vary")?.split(separator: ",")
            .contains { $0.trimmingCharacters(in: .whitespaces) == "*" } ?? false
        let lifetime = directives.maxAge.map { Duration.seconds($0) } ?? timeToLive
        guard !directives.noStore, !directives.noCache, !varyAll, lifetime > .zero else {
            return
        }
        guard maxEntries > 0, data.count <= maxBytes ?? .max else {
            return
        }
        let now = elapsed()
        let entry = Entry(data: data, response: response, storedAt: now, expiresAt: now + lifetime)
        lock.withLock {
            if let replaced = entries.set(entry, for: key) {
                bytes -= replaced.data.count
            }
            bytes += data.count
            while entries.count > maxEntries || bytes > maxBytes ?? .max, let evicted = entries.removeOldest() {
                bytes -= evicted.value.data.count
            }
        }
    }
}

extension Composer {
    /// Answers repeated `GET` requests from memory while their responses are fresh.
    ///
    /// ```swift
    /// let cache = ResponseCache(timeToLive: .seconds(300), maxEntries: 500)
    /// let transport = URLSession.shared.transport(with:
    ///     .cached(in: cache),
    ///     .deduplicated(),        // concurrent misses make one request
    ///     .retry()
    /// )
    /// ```
    ///
    /// Only `GET` requests with 2xx responses are kept, for the cache's time to live or the
    /// response's `Cache-Control: max-age`; see ``ResponseCache`` for the rules.
    ///
    /// - Parameter cache: The cache, which you can hold to inspect or clear it.
    /// - Returns: The composer.
    /// - Note: Put it above the composers whose work a hit should skip (`.retry()`,
    ///   ``throttled(maxConcurrent:perHost:)``, ``deduplicated(matching:includingUnsafeMethods:)``),
    ///   and below composers that add the headers it keys by, such as authentication, so that
    ///   two users' responses are different entries. A status that a composer below turns into
    ///   an error (``validatingStatus(_:)``) is never kept, as only responses are.
    public static func cached(in cache: ResponseCache) -> Composer {
        Composer { next in
            { request in try await cache.send(request, through: next) }
        }
    }

    /// Answers repeated `GET` requests from a new in-memory cache while their responses are
    /// fresh; use ``cached(in:)`` to hold the cache.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with: .cached(timeToLive: .seconds(30)), .retry())
    /// ```
    ///
    /// - Parameters:
    ///   - timeToLive: How long a response is fresh when it does not say; 60 seconds by
    ///     default.
    ///   - maxEntries: The most responses held at once; 100 by default.
    ///   - maxBytes: The most body bytes held at once, or `nil` for no limit.
    ///   - headers: The request headers that make two requests different entries.
    ///   - clock: The clock that measures the time to live.
    /// - Returns: The composer.
    /// - Note: The order rules of ``cached(in:)`` apply.
    public static func cached(
        timeToLive: Duration = .seconds(60),
        maxEntries: Int = 100,
        maxBytes: Int? = nil,
        varyingOn headers: HeaderSelection = ResponseCache.defaultVaryingHeaders,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        cached(
            in: ResponseCache(
                timeToLive: timeToLive,
                maxEntries: maxEntries,
                maxBytes: maxBytes,
                varyingOn: headers,
                clock: clock
            ))
    }
}
