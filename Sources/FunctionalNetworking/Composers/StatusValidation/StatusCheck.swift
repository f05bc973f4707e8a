import Foundation

/// Tells ``networking(from:)`` that the stack's ``Composer/validatingStatus(_:)`` accepted the
/// response of the call running in this task, so that the status is checked in one place: the
/// one the stack chose.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class StatusCheck: @unchecked Sendable {
    /// The check of the call running in this task, set by ``networking(from:)``.
    @TaskLocal static var current: StatusCheck?

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
