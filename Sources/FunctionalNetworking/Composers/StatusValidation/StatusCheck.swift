import Foundation

/// Tells ``networking(from:)`` (through ``RequestContext/acceptStatus()``) that the stack's ``Composer/validatingStatus(_:)`` accepted the
/// response of the call running in this task, so that the status is checked in one place: the
/// one the stack chose.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class StatusCheck: @unchecked Sendable {
    private let lock = NSLock()
    private var accepted = false

    /// Records that the stack's status validation accepted the response.
    func markAccepted() {
        lock.withLock { accepted = true }
    }

    /// Whether the stack's status validation accepted the response.
    var isAccepted: Bool {
        lock.withLock { accepted }
    }
}
