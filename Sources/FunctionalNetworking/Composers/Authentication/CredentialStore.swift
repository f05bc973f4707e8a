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
    /// Bumped on every change (a sign-in, a sign-out, a refresh), so that a request, or a
    /// refresh, knows whether the credential it began from is still the stored one.
    private(set) var version = 0
    /// The refresh running for the credential of ``version``; a change of the credential
    /// abandons it (it runs on, but its result is thrown away).
    private var refreshInFlight: (version: Int, task: Task<Credential?, any Error>)?
    private var refreshTimes: [Duration] = []
    /// Told of every change; see ``ResponseCache/removesResponses(ofCredentialsReplacedIn:)``.
    nonisolated let changes = CredentialChanges()

    /// Creates a store holding `credential`.
    public init(_ credential: Credential? = nil) {
        self.credential = credential
    }

    /// Replaces the credential (after a login, or `nil` on sign-out).
    ///
    /// A refresh running at that moment is abandoned: the credential stored here wins, and the
    /// requests that waited for the refresh go out with it (or, after a sign-out, return the
    /// server's 401).
    public func store(_ credential: Credential?) {
        let replaced = self.credential
        self.credential = credential
        version += 1
        refreshInFlight = nil
        changes.notify(replaced: replaced, by: credential)
    }

    /// The credential and its version.
    func snapshot() -> (credential: Credential?, version: Int) {
        (credential, version)
    }

    /// The newest credential after one that failed with `failedVersion`: the one already
    /// stored when somebody changed it since, else what the store holds once a single
    /// refresh, shared by every caller waiting at the same time, has ended; `nil` when signed
    /// out (no refresh then).
    ///
    /// The refreshed credential is kept only if the store still holds the one the refresh
    /// began from: a sign-out or a sign-in during the refresh wins, and the waiting callers
    /// get what the store holds then, never the abandoned refresh's result.
    ///
    /// - Throws: ``AuthenticationError/refreshLimitReached(_:within:)`` when refreshes in the
    ///   last `window` reached `limit`; ``AuthenticationError/refreshFailed(_:)`` when the
    ///   refresh itself failed (and the credential did not change meanwhile).
    func credential(
        after failedVersion: Int,
        refresh: @escaping @Sendable (Credential?) async throws -> Credential,
        limit: Int,
        window: Duration,
        now: Duration
    ) async throws -> Credential? {
        if version != failedVersion {
            return credential  // changed since, or signed out (nil): never undo a sign-out
        }
        guard credential != nil else {
            return nil  // signed out: a 401 is final, nothing to refresh
        }
        if let refreshInFlight, refreshInFlight.version == version {
            return try await refreshInFlight.task.value
        }
        refreshTimes.removeAll { now - $0 >= window }
        guard refreshTimes.count < limit else {
            throw AuthenticationError.refreshLimitReached(limit, within: window)
        }
        refreshTimes.append(now)
        let stale = credential
        let began = version
        let task = Task<Credential?, any Error> {
            let outcome: Result<Credential, any Error>
            do {
                outcome = .success(try await refresh(stale))
            } catch {
                outcome = .failure(AuthenticationError.refreshFailed(Redaction.default.describe(error)))
            }
            return try self.settle(outcome, began: began)
        }
        refreshInFlight = (began, task)
        return try await task.value
    }

    /// Keeps the refresh's `outcome` if the credential is still the one of version `began`;
    /// otherwise returns what the store holds now. Runs on the actor before any waiter
    /// resumes, so every waiter sees the settled store.
    private func settle(_ outcome: Result<Credential, any Error>, began: Int) throws -> Credential? {
        guard version == began else {
            return credential  // a sign-out or another sign-in came first: it wins
        }
        refreshInFlight = nil
        let fresh = try outcome.get()
        store(fresh)
        return fresh
    }
}
