import Foundation
import Futures

/// Collects values from any thread, for tests that check order and counts.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    var values: [Element] {
        lock.withLock { storage }
    }

    var count: Int {
        lock.withLock { storage.count }
    }
}

/// A counter shared across threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0

    @discardableResult
    func increment() -> Int {
        lock.withLock {
            storage += 1
            return storage
        }
    }

    var value: Int {
        lock.withLock { storage }
    }
}

/// An error with a name, for asserting which failure came through.
struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "TestError(\(name))" }
}

extension Future {
    /// The value, bounded by a real-time limit so that a bug fails the test instead of hanging.
    func value(within limit: Duration = .seconds(30)) async throws -> Value {
        try await timeout(after: limit).value
    }

    /// The result, bounded by a real-time limit.
    func result(within limit: Duration = .seconds(30)) async -> Result<Value, any Error> {
        do {
            return .success(try await value(within: limit))
        } catch {
            return .failure(error)
        }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        try? get()
    }
}

/// Whether `body` throws `CancellationError`.
func isCancellation(_ result: Result<some Any, any Error>?) -> Bool {
    result?.error is CancellationError
}

/// One value shared across threads, or none.
final class Slot<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value?

    init(_ value: Value? = nil) {
        storage = value
    }

    var value: Value? {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}

/// A weak reference to an object, shared across threads: a future that a closure must reach
/// without keeping it alive.
final class WeakSlot<Object: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private weak var storage: Object?

    init(_ object: Object? = nil) {
        storage = object
    }

    var object: Object? {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}
