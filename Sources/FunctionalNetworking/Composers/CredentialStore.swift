import Foundation

/// Holds the current credential, and refreshes it once for everybody.
///
/// The caller owns the store: it can fill it after a login (see
/// ``Composer/capturingCredential(into:_:)``), clear it on sign-out, and read it. The
/// ``Composer/authenticated(by:)`` composer reads it for every request and asks it to refresh
/// when the server answers 401.
///
/// ```swift
/// let store = CredentialStore(.bearer(savedToken))
/// await store.store(.bearer(newToken))
/// await store.store(nil)   // signed out
/// ```
public actor CredentialStore {
    /// The current credential, or `nil` when signed out.
    public private(set) var credential: Credential?
    /// Bumped on every change, so that a request knows whether its credential is still the
    /// newest one.
    private(set) var version = 0
    private var refreshInFlight: Task<Credential, any Error>?
    private var refreshTimes: [Duration] = []

    /// Creates a store holding `credential`.
    public init(_ credential: Credential? = nil) {
        self.credential = credential
    }

    /// Replaces the credential (after a login, or `nil` on sign-out).
    public func store(_ credential: Credential?) {
        self.credential = credential
        version += 1
    }

    /// The credential and its version.
    func snapshot() -> (credential: Credential?, version: Int) {
        (credential, version)
    }

    /// The newest credential after one that failed with `failedVersion`: the one already
    /// stored when somebody refreshed since, else the result of a single refresh shared by
    /// every caller waiting at the same time; `nil` when signed out (no refresh then).
    ///
    /// - Throws: ``AuthenticationError/refreshLimitReached(_:within:)`` when refreshes in the
    ///   last `window` reached `limit`; ``AuthenticationError/refreshFailed(_:)`` when the
    ///   refresh itself failed.
    func credential(
        after failedVersion: Int,
        refresh: @escaping @Sendable (Credential?) async throws -> Credential,
        limit: Int,
        window: Duration,
        now: Duration
    ) async throws -> Credential? {
        if version != failedVersion {
            return credential  // refreshed since, or signed out (nil): never undo a sign-out
        }
        guard credential != nil else {
            return nil  // signed out: a 401 is final, nothing to refresh
        }
        if let refreshInFlight {
            return try await refreshInFlight.value
        }
        refreshTimes.removeAll { now - $0 >= window }
        guard refreshTimes.count < limit else {
            throw AuthenticationError.refreshLimitReached(limit, within: window)
        }
        refreshTimes.append(now)
        let stale = credential
        let task = Task<Credential, any Error> {
            do {
                return try await refresh(stale)
            } catch {
                throw AuthenticationError.refreshFailed(String(describing: error))
            }
        }
        refreshInFlight = task
        defer { refreshInFlight = nil }
        let fresh = try await task.value
        store(fresh)
        return fresh
    }
}

/// Why an authenticated request could not be made.
public enum AuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The credential refresh failed; every request waiting on it gets this error.
    case refreshFailed(String)
    /// Too many refreshes in a short time: the server keeps refusing fresh credentials, so no
    /// more refreshes are tried until the window passes.
    case refreshLimitReached(Int, within: Duration)

    /// The error in words.
    public var description: String {
        switch self {
        case .refreshFailed(let reason):
            "Refreshing the credential failed: \(reason)"
        case .refreshLimitReached(let limit, let window):
            "The server refused \(limit) fresh credentials within \(window); not refreshing again until that time has passed."
        }
    }
}
