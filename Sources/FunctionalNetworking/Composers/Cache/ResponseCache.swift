import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An in-memory cache of successful `GET` responses: the state behind ``Composer/cached(in:)``.
///
/// It keeps a response when the request is a `GET`, the status is 2xx and the response says how
/// long it is fresh (`Cache-Control: max-age`, or `Expires`), or when you ask for heuristic
/// freshness, for that long measured on the clock you give it (so tests use a manual clock).
/// A response that says nothing about its freshness is not kept unless you give
/// `heuristicFreshness`. It keeps them within a budget: at most
/// `maxEntries` responses and `maxBytes` of bodies (16 MiB by default), each body at most
/// `maxEntryBytes` (1 MiB by default; a larger one is passed through, not kept). When full, it
/// drops the least recently used. A cached answer is the same `(Data, URLResponse)` the
/// transport below returned.
///
/// Requests are matched by value: by method, URL, body and the request headers that matter
/// (by default `Accept` and `Accept-Language`), never by the identity of the `URLRequest`.
/// Concurrent misses for the same request (every header equal) share one upstream call, whose
/// answer is stored before a later request can miss: a burst of identical requests makes one
/// call, with or without ``Composer/deduplicated(matching:includingUnsafeMethods:)``. The
/// first of them makes the call in its own task (a miss costs no task of its own); should
/// that caller be cancelled and its call fail, the others make the call again rather than
/// share its cancellation.
///
/// **Users never share an entry.** A response fetched with one credential is never served
/// to a request carrying another credential, or none, whatever carries it: the headers that
/// `credentials` calls secret (by default `Authorization`, `Proxy-Authorization`, `Cookie`,
/// `X-API-Key`, `API-Key`, `X-Auth-Token` and the others of ``Redaction/defaultHeaderNames``;
/// name your own with `Redaction.default.redactingHeaders(_:)`), and the cookies that
/// `cookieStorage` would add on the way out. Entries are told apart by a digest of those
/// credentials, not the credentials themselves. Pass the cookie storage of the session below
/// (`configuration.httpCookieStorage`); `HTTPCookieStorage.shared`, the default, is the one of
/// `URLSession.shared` and of sessions made with `.default` configurations.
///
/// ```swift
/// let cache = ResponseCache(maxEntries: 500, maxBytes: 20_000_000)
/// cache.removesResponses(ofCredentialsReplacedIn: store)   // sign-out frees the user's entries
/// let transport = NetworkSession.shared.transport(with: .authenticated(by: auth), .cached(in: cache), .retry())
/// // …
/// cache.count          // responses held now
/// cache.removeAll()    // after a sign-out of a cookie session
/// ```
///
/// It honours `Cache-Control`, `Expires`, `Vary` and validators (RFC 9111):
/// - on a response, `no-store` means it is never kept; `max-age=N` keeps it fresh for `N`
///   seconds, else `Expires` minus `Date`, else ``heuristicFreshness`` if you gave one;
///   `max-age=0` and `no-cache` mean it is kept only when it has a validator, and revalidated
///   before every use; `Vary: *` means it is not kept.
/// - Revalidation (§4.3): a stale response with an `ETag` or a `Last-Modified` date is kept;
///   the next request for it is sent with `If-None-Match` / `If-Modified-Since`, and a `304 Not
///   Modified` is answered with the stored body, under the stored response updated with the
///   304's header fields (and fresh again for as long as they say). Any other answer replaces
///   it. A request that carries its own conditional headers is passed through untouched, and
///   its 304 is the caller's.
/// - `Vary` naming headers (§4.1): the request's values of those headers are kept with the
///   response, which is served only to a request whose values match (absent in both counts
///   as a match; `Cookie` includes the stored cookies). A request that does not match goes
///   upstream, and its response replaces the entry.
/// - on a request, `no-store` means it neither reads nor writes the cache; `no-cache` and
///   `max-age=0` mean it is not answered from the cache (its fresh response is kept);
///   `max-age=N` means it accepts only a response stored less than `N` seconds ago.
///
/// `Age`, `stale-while-revalidate` and `must-revalidate` are not used.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`; every
///   method may be called from any task or thread.
public final class ResponseCache: @unchecked Sendable {
    /// The request headers a cache tells requests apart by unless told otherwise: `Accept`,
    /// `Accept-Language` and `Authorization` (credentials always count, by digest; see
    /// ``ResponseCache``).
    public static let defaultVaryingHeaders: HeaderSelection = .only(["Accept", "Accept-Language", "Authorization"])

    /// The most body bytes a cache holds unless told otherwise: 16 MiB.
    public static let defaultMaxBytes = 16 * 1024 * 1024

    /// The largest body a cache keeps unless told otherwise: 1 MiB. A larger body is passed
    /// through and not kept.
    public static let defaultMaxEntryBytes = 1024 * 1024

    /// How long a response is fresh when it does not say (with `Cache-Control: max-age` or
    /// `Expires`); `nil`, the default, keeps no such response (RFC 9111 §4.2.2 allows a cache
    /// to guess; this one guesses only when you ask it to).
    public let heuristicFreshness: Duration?
    /// The most responses held at once.
    public let maxEntries: Int
    /// The most body bytes held at once, or `nil` for no limit other than ``maxEntries``.
    public let maxBytes: Int?
    /// The largest body kept; a larger one is passed through.
    public let maxEntryBytes: Int
    /// The request headers that make two requests different entries.
    public let headers: HeaderSelection

    private struct Entry {
        let data: Data
        let response: URLResponse
        /// When it was stored, as time since the cache was made.
        let storedAt: Duration
        /// When it stops being fresh, as time since the cache was made.
        let expiresAt: Duration
        /// The request's values of the headers the response's `Vary` names, by lower-cased
        /// name (`nil` for a header the request did not carry).
        let vary: [String: String?]
        /// Its validators, to revalidate it once stale.
        let freshness: CacheFreshness
    }

    /// The time since the cache was made, on its clock.
    private let elapsed: @Sendable () -> Duration
    private let carriers: CredentialCarriers
    /// The misses being fetched now: identical concurrent misses share one call, whose answer
    /// is stored before the call leaves this table.
    private let misses = SharedFlights()
    private let lock = NSLock()
    private var entries = CacheLRU<RequestKey, Entry>()
    private var bytes = 0

    /// Creates an empty cache.
    ///
    /// ```swift
    /// let cache = ResponseCache(maxEntries: 200)
    /// let guessing = ResponseCache(heuristicFreshness: .seconds(60), clock: testClock)
    /// ```
    ///
    /// - Parameters:
    ///   - heuristicFreshness: How long a response is fresh when it does not say; `nil`, the
    ///     default, keeps no such response.
    ///   - maxEntries: The most responses held at once; 100 by default. Values below 0 count
    ///     as 0, which keeps nothing.
    ///   - maxBytes: The most body bytes held at once; ``defaultMaxBytes`` (16 MiB) by
    ///     default, `nil` for no limit.
    ///   - maxEntryBytes: The largest body kept; ``defaultMaxEntryBytes`` (1 MiB) by default.
    ///   - headers: The request headers that make two requests different entries;
    ///     ``defaultVaryingHeaders`` by default.
    ///   - credentials: The headers that carry a credential are those it calls secret;
    ///     ``Redaction/default`` by default. Requests with different credentials never share
    ///     an entry, whatever `headers` says.
    ///   - cookieStorage: The cookie storage of the session below, whose cookies for a
    ///     request count as its credentials; `HTTPCookieStorage.shared` by default, `nil` when
    ///     the session stores no cookies.
    ///   - clock: The clock that measures freshness; `ContinuousClock()` by default.
    public init(
        heuristicFreshness: Duration? = nil,
        maxEntries: Int = 100,
        maxBytes: Int? = ResponseCache.defaultMaxBytes,
        maxEntryBytes: Int = ResponseCache.defaultMaxEntryBytes,
        varyingOn headers: HeaderSelection = ResponseCache.defaultVaryingHeaders,
        credentials: Redaction = .default,
        cookieStorage: HTTPCookieStorage? = .shared,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.heuristicFreshness = heuristicFreshness
        self.maxEntries = max(0, maxEntries)
        self.maxBytes = maxBytes.map { max(0, $0) }
        self.maxEntryBytes = max(0, maxEntryBytes)
        self.headers = headers
        carriers = CredentialCarriers(redaction: credentials, cookieStorage: cookieStorage)
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }

    /// The number of responses held, fresh or not yet found expired.
    public var count: Int {
        lock.withLock { entries.count }
    }

    /// The number of requests waiting for an identical miss that another request is fetching.
    var waitingMissCount: Int {
        misses.waiterCount
    }

    /// The total size of the bodies held, in bytes.
    public var totalBytes: Int {
        lock.withLock { bytes }
    }

    /// The fresh response held for `request`, if any; finding it counts as a use (it becomes
    /// the last to be evicted). An expired response is removed instead.
    ///
    /// ```swift
    /// if case (let data, _)? = cache.cachedResponse(for: URLRequest(url: productURL)) { show(data) }
    /// ```
    ///
    /// - Parameter request: The request, matched by value, credentials and `Vary`.
    /// - Returns: The data and response, or `nil`.
    public func cachedResponse(for request: URLRequest) -> (Data, URLResponse)? {
        guard let key = key(for: request, identity: carriers.identity(of: request)) else { return nil }
        return lookUp(key, request: request, maxAge: nil)
    }

    /// Removes the response held for `request`, if any.
    ///
    /// - Parameter request: The request, matched by value.
    public func removeResponse(for request: URLRequest) {
        guard let key = key(for: request, identity: carriers.identity(of: request)) else { return }
        lock.withLock {
            if let removed = entries.removeValue(for: key) {
                bytes -= removed.data.count
            }
        }
    }

    /// Removes every response, for instance when the user of a cookie session signs out.
    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            bytes = 0
        }
    }

    /// Removes every response fetched with `credential` in the `Authorization` header, as
    /// ``Composer/authenticated(by:)`` sends it.
    ///
    /// ```swift
    /// cache.removeResponses(fetchedWith: .bearer(oldToken))
    /// ```
    ///
    /// - Parameter credential: The credential whose responses to forget.
    public func removeResponses(fetchedWith credential: Credential) {
        let digest = CredentialDigest(credential)
        lock.withLock {
            for key in entries.keysNewestFirst where key.credentials.contains(digest) {
                if let removed = entries.removeValue(for: key) {
                    bytes -= removed.data.count
                }
            }
        }
    }

    /// Links the cache to `store`: from now on, each time the stored credential changes (a
    /// sign-out, another sign-in, a refresh), the responses fetched with the credential it
    /// replaced are removed at once (see ``removeResponses(fetchedWith:)``).
    ///
    /// ```swift
    /// let cache = ResponseCache()
    /// cache.removesResponses(ofCredentialsReplacedIn: store)
    /// await store.store(nil)   // signed out: the user's responses are gone
    /// ```
    ///
    /// Without the link, a replaced credential's responses are unreachable all the same (no
    /// request carries it any more) but stay in memory until evicted or expired. The store
    /// holds the cache weakly.
    ///
    /// - Parameter store: The store whose changes to follow.
    public func removesResponses(ofCredentialsReplacedIn store: CredentialStore) {
        store.changes.add { [weak self] replaced, _ in
            if let replaced {
                self?.removeResponses(fetchedWith: replaced)
            }
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
    func send(_ request: URLRequest, through next: @escaping Transport) async throws -> (Data, URLResponse) {
        // A download's body goes to a file, a stream's to its reader, not to memory: nothing to keep or share.
        let context = RequestContext.current
        guard RequestKey.method(of: request) == .get, request.url != nil, request.httpBodyStream == nil, !context.isDownload,
            !context.isStreamed
        else {
            return try await next(request)
        }
        // Who the request speaks for is looked up once (its cookies, too) for both keys below,
        // and its cookies are remembered for the call below (see `StoredCookiesMemo`).
        let cookies = carriers.storedCookies(for: request)
        let identity = carriers.identity(of: request, storedCookies: cookies)
        guard let key = key(for: request, identity: identity) else {
            return try await next(request)
        }
        let directives = CacheDirectives(request.allHTTPHeaderFields.flatMap { HeaderLookup.value(of: "Cache-Control", in: $0) })
        if directives.noStore {
            return try await next(request)
        }
        let mayHit = !directives.noCache && directives.maxAge != 0
        if mayHit, let hit = lookUp(key, request: request, maxAge: directives.maxAge) {
            try context.checkSize(of: hit.0, for: request)
            return hit
        }
        let fetch: Transport = { request in
            // A call that starts just after another stored the answer finds it here.
            if mayHit, let hit = self.lookUp(key, request: request, maxAge: directives.maxAge) {
                return hit
            }
            if !CacheFreshness.isConditional(request), let stored = self.revalidatable(key, request: request) {
                return try await self.revalidate(stored, request: request, key: key, through: next)
            }
            let (data, response) = try await next(request)
            self.store(data, response, for: key, request: request)
            return (data, response)
        }
        // Identical misses (every header equal, so `Vary` cannot tell them apart) share one
        // call, which looks the cache up again before going upstream and stores the answer
        // before it leaves the table: a request that missed just before the store either joins
        // that call or starts one that finds the answer.
        guard let missKey = RequestKey(request, headers: .all, credentials: carriers, identity: identity) else {
            return try await fetch(request)
        }
        // The shared call carries the memo of the request's cookies for the de-duplicator below.
        return try await misses.send(
            request, key: missKey, context: context.remembering(cookies, of: carriers, for: request), through: fetch)
    }

    /// Sends `request` made conditional on `stored`: a 304 gives the stored body under the
    /// stored response updated with the 304's fields, and is kept again; any other response is
    /// stored (if it may be) and returned as it is.
    private func revalidate(
        _ stored: Entry,
        request: URLRequest,
        key: RequestKey,
        through next: Transport
    ) async throws -> (Data, URLResponse) {
        let (data, response) = try await next(stored.freshness.conditional(request))
        guard let notModified = response as? HTTPURLResponse, notModified.statusCode == 304,
            let storedResponse = stored.response as? HTTPURLResponse
        else {
            store(data, response, for: key, request: request)
            return (data, response)
        }
        let updated = CacheFreshness.updated(storedResponse, with: notModified)
        store(stored.data, updated, for: key, request: request)
        return (stored.data, updated)
    }

    /// The entry for `key`, fresh or not, that matches the `Vary` headers of `request` and has
    /// a validator.
    private func revalidatable(_ key: RequestKey, request: URLRequest) -> Entry? {
        guard let vary = lock.withLock({ entries.peek(key)?.vary }) else { return nil }
        let presented = varyValues(of: request, names: vary.keys)
        return lock.withLock {
            guard let entry = entries.peek(key), entry.freshness.hasValidator, entry.vary == presented else { return nil }
            return entry
        }
    }

    /// The key of a request this cache may answer: a `GET` that can be compared by value.
    private func key(for request: URLRequest, identity: CredentialIdentity) -> RequestKey? {
        guard RequestKey.method(of: request) == .get else { return nil }
        return RequestKey(request, headers: headers, credentials: carriers, identity: identity)
    }

    /// The entry for `key` if it is fresh, matches the `Vary` headers of `request` and, given
    /// `maxAge` (in seconds), is young enough.
    private func lookUp(_ key: RequestKey, request: URLRequest, maxAge: Int?) -> (Data, URLResponse)? {
        guard let vary = lock.withLock({ entries.peek(key)?.vary }) else { return nil }
        let now = elapsed()
        let presented = varyValues(of: request, names: vary.keys)
        return lock.withLock {
            guard let entry = entries.peek(key) else { return nil }
            guard now < entry.expiresAt else {
                if !entry.freshness.hasValidator {  // else kept, to be revalidated
                    entries.removeValue(for: key)
                    bytes -= entry.data.count
                }
                return nil
            }
            if let maxAge, now - entry.storedAt >= .seconds(maxAge) {
                return nil
            }
            guard entry.vary == presented else {
                return nil
            }
            _ = entries.use(key)
            return (entry.data, entry.response)
        }
    }

    /// The request's values of the headers `names`, normalised: `Cookie` with the stored
    /// cookies, runs of spaces and tabs as one space.
    private func varyValues(of request: URLRequest, names: some Sequence<String>) -> [String: String?] {
        var values: [String: String?] = [:]
        for name in names {
            // `updateValue`, not a subscript: assigning `nil` through the subscript would remove
            // the name, and "absent" must be kept as a value to compare.
            values.updateValue(carriers.value(ofHeader: name, in: request).map(Self.normalised), forKey: name)
        }
        return values
    }

    private static func normalised(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// Keeps the response if it is a 2xx that may be stored, evicting the least recently used
    /// entries to stay within the limits.
    private func store(_ data: Data, _ response: URLResponse, for key: RequestKey, request: URLRequest) {
        guard let http = response as? HTTPURLResponse, HTTPStatusError.successStatuses.contains(http.statusCode) else {
            return
        }
        let directives = CacheDirectives(http.value(forHTTPHeaderField: "Cache-Control"))
        guard !directives.noStore else { return }
        // The lifetime first: most responses that say nothing of it are not kept, and their
        // validators need not be read.
        let explicitLifetime = CacheFreshness.explicitLifetime(of: http, cacheControl: directives)
        // `no-cache` and a lifetime of zero keep a response only to revalidate it before use.
        guard let lifetime = directives.noCache ? .zero : explicitLifetime ?? heuristicFreshness else { return }
        let freshness = CacheFreshness(http, explicitLifetime: explicitLifetime)
        guard lifetime > .zero || freshness.hasValidator else {
            return
        }
        let varyNames = Set(
            (http.value(forHTTPHeaderField: "Vary") ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty })
        guard !varyNames.contains("*") else {
            return
        }
        guard maxEntries > 0, data.count <= min(maxEntryBytes, maxBytes ?? .max) else {
            return  // too large: passed through, not kept
        }
        let now = elapsed()
        let entry = Entry(
            data: data, response: response, storedAt: now, expiresAt: now + lifetime,
            vary: varyValues(of: request, names: varyNames), freshness: freshness)
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
