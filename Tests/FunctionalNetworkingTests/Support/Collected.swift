import Foundation

/// Values collected from any task or thread, in the order they arrived: what a sink, a
/// composer or a server handler saw.
final class Collected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    init() {}

    /// Adds `value` after the others.
    func append(_ value: Value) { lock.withLock { stored.append(value) } }

    /// The values so far.
    var values: [Value] { lock.withLock { stored } }
}

/// A count shared across tasks and threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0

    init() {}

    /// Adds one, returning the new count.
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            storage += 1
            return storage
        }
    }

    /// The count so far.
    var value: Int { lock.withLock { storage } }
}
