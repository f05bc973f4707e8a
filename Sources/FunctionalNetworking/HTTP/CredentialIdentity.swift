import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a request can carry a credential, for ``ResponseCache`` and ``RequestDeduplicator``:
/// the headers of ``Redaction/defaultHeaderNames`` and those the caller named (see
/// ``Redaction/carriesCredential(lowercased:)``) and the cookies a cookie storage adds to the
/// request on its way out.
struct CredentialCarriers: Sendable {
    /// Decides which headers carry a credential.
    let redaction: Redaction
    /// The cookie storage of the session below, if it adds cookies.
    let cookieStorage: HTTPCookieStorage?

    /// Whether the header called `name` carries a credential (`Set-Cookie`, a response header,
    /// never does in a request).
    func carriesCredential(_ name: String) -> Bool {
        carriesCredential(lowercased: name.lowercased())
    }

    /// Whether the header whose lower-cased name is `name` carries a credential.
    func carriesCredential(lowercased name: String) -> Bool {
        redaction.carriesCredential(lowercased: name) && name != "set-cookie"
    }

    /// Who `request` speaks for: a digest of each credential it carries.
    func identity(of request: URLRequest) -> CredentialIdentity {
        identity(of: request, storedCookies: storedCookies(for: request))
    }

    /// Who `request` speaks for, given the cookies the storage adds to it (`storedCookies`).
    func identity(of request: URLRequest, storedCookies stored: String?) -> CredentialIdentity {
        var identity = CredentialIdentity()
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            let name = name.lowercased()
            if carriesCredential(lowercased: name) {
                identity.insert(CredentialDigest(name: name, value: value))
            }
        }
        if let stored {
            identity.insert(CredentialDigest(name: "cookie storage", value: stored))
        }
        return identity
    }

    /// The cookies the storage would add to `request`, as a `Cookie` value sorted by name;
    /// `nil` when it adds none.
    func storedCookies(for request: URLRequest) -> String? {
        guard let cookieStorage, request.httpShouldHandleCookies, let url = request.url else { return nil }
        if let memo = RequestContext.current.storedCookies, memo.storage === cookieStorage, memo.url == url {
            return memo.cookies
        }
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation matches every cookie against the URL's host, parsed and
        // lower-cased anew, under a dispatch queue; asking first whether it holds any cookie at
        // all halves the cost for the many sessions that hold none.
        if cookieStorage.cookies?.isEmpty ?? true {
            return nil
        }
        #endif
        guard let cookies = cookieStorage.cookies(for: url), !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "; ")
    }

    /// The value of the header called `name` as the request will carry it: for `Cookie`, with
    /// the stored cookies added. `nil` when absent.
    func value(ofHeader name: String, in request: URLRequest) -> String? {
        let own = request.value(forHTTPHeaderField: name)
        guard name == "cookie", let stored = storedCookies(for: request) else { return own }
        return own.map { "\($0); \(stored)" } ?? stored
    }
}

/// The cookies a cookie storage adds to a URL, as a composer above found them, for the call
/// below it: a second composer below (de-duplication below the cache) then need not ask the
/// storage again. It travels in ``RequestContext/current``. Asking costs three allocations and a
/// dispatch queue round trip on Linux, every request.
struct StoredCookiesMemo: Sendable {
    /// The storage asked.
    let storage: HTTPCookieStorage
    /// The URL it was asked about.
    let url: URL
    /// Its answer, as ``CredentialCarriers/storedCookies(for:)`` gives it.
    let cookies: String?
}

extension RequestContext {
    /// This context with the memo of `carriers`' cookies for `request`, when they count.
    func remembering(_ cookies: String?, of carriers: CredentialCarriers, for request: URLRequest) -> RequestContext {
        guard let storage = carriers.cookieStorage, request.httpShouldHandleCookies, let url = request.url else {
            return self
        }
        var context = self
        context.storedCookies = StoredCookiesMemo(storage: storage, url: url, cookies: cookies)
        return context
    }
}

/// The credentials a request carries, as digests: equal for two requests that carry the same
/// credentials, and empty for a request that carries none. The secrets themselves are not
/// kept.
struct CredentialIdentity: Hashable, Sendable {
    /// The smallest digest: most requests carry one credential at most, which so needs no
    /// array (no allocation).
    private(set) var first: CredentialDigest?
    /// The other digests, sorted, each greater than ``first``.
    private(set) var rest: [CredentialDigest] = []

    /// Adds `digest`, keeping the digests sorted.
    mutating func insert(_ digest: CredentialDigest) {
        guard let current = first else {
            first = digest
            return
        }
        if digest < current {
            first = digest
            rest.insert(current, at: 0)
        } else {
            rest.insert(digest, at: rest.firstIndex { digest < $0 } ?? rest.endIndex)
        }
    }

    /// Whether the request carries `digest` among its credentials.
    func contains(_ digest: CredentialDigest) -> Bool {
        first == digest || rest.contains(digest)
    }
}

/// A 128-bit digest of one credential (its carrier's name and value), made of two hashes with
/// different salts. Hashing is seeded per process, so a digest cannot be computed ahead of
/// time, and it never leaves memory.
struct CredentialDigest: Hashable, Sendable, Comparable {
    let high: UInt64
    let low: UInt64

    init(name: String, value: String) {
        high = Self.hash(name, value, salt: 0x6a09_e667_f3bc_c908)
        low = Self.hash(name, value, salt: 0xbb67_ae85_84ca_a73b)
    }

    /// The digest of `credential` as ``Composer/authenticated(by:)`` sends it.
    init(_ credential: Credential) {
        self.init(name: "authorization", value: credential.authorizationValue)
    }

    private static func hash(_ name: String, _ value: String, salt: UInt64) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(name)
        hasher.combine(value)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    static func < (lhs: CredentialDigest, rhs: CredentialDigest) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}
