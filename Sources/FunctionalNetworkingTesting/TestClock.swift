import Foundation
import Futures

/// A clock that only moves when a test tells it to, so time-based code runs without sleeping.
///
/// ```swift
/// let clock = TestClock()
/// let delayed = Future(value: 1).delay(for: .seconds(5), clock: clock)
/// clock.advance(by: .seconds(5))
/// #expect(try await delayed.value == 1)
/// ```
///
/// A sleeper whose deadline has already passed returns at once. ``advance(by:)`` wakes every
/// sleeper whose deadline it reaches, earliest first. When code computes its deadline inside a
/// `Task` (so the test cannot know when it starts sleeping), wait for it with
/// ``waitForSleepers(count:timeout:)`` before advancing.
///
/// - Note: `TestClock` owns a lock, hence `@unchecked Sendable`.
public final class TestClock: Clock, @unchecked Sendable {
    /// A point in a test clock's time: a duration since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// Time since the clock's start.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the clock's start, for test failure messages.
        public var description: String { "TestClock.Instant(\(offset))" }
    }

    /// Thrown by ``waitForSleepers(count:timeout:)`` when the sleepers do not show up in time.
    public struct SleepersTimeout: Error, CustomStringConvertible {
        /// How many sleepers the test waited for.
        public let expected: Int
        /// How many were sleeping when the wait gave up.
        public let sleeping: Int

        /// Creates the error for a wait for `expected` sleepers that saw only `sleeping`.
        init(expected: Int, sleeping: Int) {
            self.expected = expected
            self.sleeping = sleeping
        }

        /// A sentence saying what did not happen.
        public var description: String {
            "Waited for \(expected) task(s) to sleep on the TestClock, but only \(sleeping) did."
        }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct Waiter {
        let count: Int
        let promise: Promise<Void>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var cancelledBeforeSleeping: Set<UInt64> = []
    private var waiters: [Waiter] = []
    private var lastID: UInt64 = 0

    /// Creates a clock at time zero.
    public init() {}

    /// The clock's current time; it changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant {
        lock.withLock { current }
    }

    /// The smallest step the clock measures.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on the clock right now.
    public var sleeperCount: Int {
        lock.withLock { sleepers.count }
    }

    /// Suspends until the clock reaches `deadline`, or throws `CancellationError` when the task
    /// is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = lock.withLock {
            lastID += 1
            return lastID
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                lock.lock()
                if cancelledBeforeSleeping.remove(id) != nil {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                if deadline <= current {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                let satisfied = takeSatisfiedWaiters()
                lock.unlock()
                for waiter in satisfied {
                    waiter.promise.resolve()
                }
            }
        } onCancel: {
            lock.lock()
            guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                cancelledBeforeSleeping.insert(id)
                lock.unlock()
                return
            }
            let sleeper = sleepers.remove(at: index)
            lock.unlock()
            sleeper.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, waking every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards), waking every sleeper whose deadline it
    /// reaches, earliest first.
    public func advance(to instant: Instant) {
        lock.lock()
        if instant > current {
            current = instant
        }
        let due = sleepers.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
        sleepers.removeAll { $0.deadline <= current }
        lock.unlock()
        for sleeper in due {
            sleeper.continuation.resume()
        }
    }

    /// Moves the clock to the earliest sleeper's deadline and wakes it (and any other sleeper
    /// due then).
    ///
    /// - Returns: `false` if nobody is sleeping.
    @discardableResult
    public func advanceToNextDeadline() -> Bool {
        guard let next = lock.withLock({ sleepers.map(\.deadline).min() }) else {
            return false
        }
        advance(to: next)
        return true
    }

    /// Waits until at least `count` tasks sleep on the clock, or throws ``SleepersTimeout``
    /// after `timeout` of real time.
    ///
    /// Use it before ``advance(by:)`` when the code under test starts its sleep from a `Task`.
    public func waitForSleepers(count: Int = 1, timeout: Duration = .seconds(30)) async throws {
        guard let promise = registerWaiter(count: count) else {
            return
        }
        do {
            try await promise.timeout(after: timeout).value
        } catch is TimeoutError {
            throw SleepersTimeout(expected: count, sleeping: sleeperCount)
        }
    }

    /// Returns a promise resolved once `count` tasks sleep, or `nil` if they already do.
    private func registerWaiter(count: Int) -> Promise<Void>? {
        lock.withLock {
            guard sleepers.count < count else { return nil }
            let promise = Promise<Void>()
            waiters.append(Waiter(count: count, promise: promise))
            return promise
        }
    }

    /// Removes and returns the waiters whose count is reached; the lock must be held.
    private func takeSatisfiedWaiters() -> [Waiter] {
        let count = sleepers.count
        let satisfied = waiters.filter { $0.count <= count }
        waiters.removeAll { $0.count <= count }
        return satisfied
    }
}

extension TestClock.SleepersTimeout: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
