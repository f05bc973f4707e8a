import Foundation

/// The callbacks a ``CredentialStore`` tells of each change, with the credential replaced and
/// the new one. Readable without going through the actor, so that a cache can register from
/// a synchronous call.
///
/// - Note: Owns a lock that guards its list, hence `@unchecked Sendable`.
final class CredentialChanges: @unchecked Sendable {
    typealias Observer = @Sendable (_ replaced: Credential?, _ new: Credential?) -> Void

    private let lock = NSLock()
    private var observers: [Observer] = []

    /// Calls `observer` after every later change.
    func add(_ observer: @escaping Observer) {
        lock.withLock { observers.append(observer) }
    }

    /// Tells every observer, outside the lock.
    func notify(replaced: Credential?, by new: Credential?) {
        let observers = lock.withLock { self.observers }
        for observer in observers {
            observer(replaced, new)
        }
    }
}
