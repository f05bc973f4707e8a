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
    public var credential: Credential? {
        current.read().credential
    }
    /// Bumped on every change (a sign-in, a sign-out, a refresh), so that a request, or a
    /// refresh, knows whether the credential it began from is still the stored one.
    var version: Int {
        current.read().version
    }
    /// The credential, its version and its `Authorization` value, changed only on the actor
    /// and readable from any task without a hop to it (see ``snapshot()``).
    private nonisolated let current: CurrentCredential
    /// The refresh running for the credential of ``version``; a change of the credential
    /// abandons it (it runs on, but its result is thrown away).
    private var refreshInFlight: (version: Int, task: Task<Credential?, any Error>)?
    private var refreshTimes: [Duration] = []
    /// Told of every change; see ``ResponseCache/removesResponses(ofCredentialsReplacedIn:)``.
    nonisolated let changes = CredentialChanges()

    /// Creates a store holding `credential`.
    public init(_ credential: Credential? = nil) {
        current = CurrentCredential(credential)
    }

    /// Replaces the credential (after a login, or `nil` on sign-out).
    ///
    /// A refresh running at that moment is abandoned: the credential stored here wins, and the
    /// requests that waited for the refresh go out with it (or, after a sign-out, return the
    /// server's 401).
    public func store(_ credential: Credential?) {
        let replaced = current.replace(with: credential)
        refreshInFlight = nil
        changes.notify(replaced: replaced, by: credential)
    }

    /// The credential, its version and its `Authorization` value, read without a hop to the
    /// actor: every request reads it, and an uncontended lock costs less than the hop (which
    /// would also suspend a task started with `Task.immediate`).
    nonisolated func snapshot() -> CurrentCredential.Snapshot {
        current.read()
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
        let (credential, version) = (self.credential, self.version)
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
                // A call of its own: none of the settings of the request that met the 401.
                outcome = .success(try await RequestContext.$current.withValue(RequestContext()) { try await refresh(stale) })
            } catch {
                outcome = .failure(AuthenticationError.refreshFailed(error))
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
        let now = current.read()
        guard now.version == began else {
            return now.credential  // a sign-out or another sign-in came first: it wins
        }
        refreshInFlight = nil
        let fresh = try outcome.get()
        store(fresh)
        return fresh
    }
}

/// The credential of a ``CredentialStore``, its version and the `Authorization` value made from
/// it once (not per request). The store changes it on its actor; requests read it from any task.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class CurrentCredential: @unchecked Sendable {
    /// What a request reads: the credential, its version, and its header value.
    struct Snapshot: Sendable {
        /// The credential, or `nil` when signed out.
        let credential: Credential?
        /// The store's version of it.
        let version: Int
        /// `credential.authorizationValue`, or `nil` when signed out or when the value could not
        /// be sent (a control character in the secret: it is never put on the wire).
        let authorization: String?

        init(_ credential: Credential?, version: Int) {
            self.credential = credential
            self.version = version
            authorization = credential.map(\.authorizationValue).flatMap {
                HTTPFieldSyntax.isValidFieldValue($0) ? $0 : nil
            }
        }
    }

    private let lock = NSLock()
    private var snapshot: Snapshot

    init(_ credential: Credential?) {
        snapshot = Snapshot(credential, version: 0)
    }

    /// The current snapshot.
    func read() -> Snapshot {
        lock.withLock { snapshot }
    }

    /// Stores `credential` under the next version.
    ///
    /// - Returns: The credential it replaced.
    func replace(with credential: Credential?) -> Credential? {
        lock.withLock {
            let replaced = snapshot.credential
            snapshot = Snapshot(credential, version: snapshot.version + 1)
            return replaced
        }
    }
}
