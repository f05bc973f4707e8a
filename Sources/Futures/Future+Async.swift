// MARK: - Bridging to async/await

extension Future {
    /// Starts `operation` in a new `Task` and returns the future of its result.
    ///
    /// ```swift
    /// let future = Future { try await session.data(for: request).0 }
    /// ```
    ///
    /// Cancelling the future cancels the task. The task keeps the future alive until it ends.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The work; its value or error completes the future.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Value
    ) {
        self.init()
        let task = Task(priority: priority) {
            do {
                self.settle(with: .success(try await operation()))
            } catch {
                self.settle(with: .failure(error))
            }
        }
        addCancellationHandler { task.cancel() }
    }

    /// The future's value, once it has one; throws the future's error if it fails.
    ///
    /// ```swift
    /// let product = try await loader(id).value
    /// ```
    ///
    /// Cancelling the awaiting `Task` releases the future the same way cancelling a derived
    /// future does: it is cancelled once nothing else depends on it (see ``cancel(isolation:)``), and the
    /// task gets `CancellationError`. A future that has already completed returns at once,
    /// without suspending. The caller resumes in its own isolation.
    @inlinable
    public final var value: Value {
        // Always inlined: the fast path then runs in the caller without an async call (see
        // Benchmarks/README.md, "awaiting a completed future").
        @inline(__always) get async throws {
            if let outcome = result {
                return try outcome.get()
            }
            // The waiter lets a cancelled task stop waiting at once, even when the future itself
            // goes on because something else still depends on it.
            let waiter = Waiter<Value>()
            whenComplete(retainingDependent: true) { source in
                waiter.resume(completedFuture: source)
                return nil
            }
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    waiter.wait(with: continuation)
                }
            } onCancel: {
                waiter.resume(completedFuture: nil)
                releaseChain(from: self)
            }
        }
    }
}

/// What a task awaiting ``Future/value`` waits on: the first of the future's completion and
/// the task's cancellation resumes it, once.
///
/// Not a future itself, and it stores no result (only the completed future, or nothing for a
/// cancellation), so that it is cheap to make and to free: freeing a generic result looks up
/// its type's metadata.
@usableFromInline
final class Waiter<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// Set under the lock when the task suspends.
    @exclusivity(unchecked) @usableFromInline var continuation: UnsafeContinuation<Value, any Error>?
    /// Whether the continuation has been resumed, or an early resumption is waiting for it.
    @exclusivity(unchecked) @usableFromInline var isDone = false
    /// The future that completed before the task suspended, if it did; `nil` with ``isDone``
    /// set means the task was cancelled before it suspended.
    @exclusivity(unchecked) @usableFromInline var earlySource: AnyObject?

    @inlinable init() {}

    /// Resumes the task with the result of `completedFuture` (a `Future<Value>`), or with
    /// `CancellationError` when it is `nil`, unless something resumed it first.
    @inlinable func resume(completedFuture: AnyObject?) {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        guard let continuation else {
            earlySource = completedFuture
            lock.unlock()
            return
        }
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: Self.result(of: completedFuture))
    }

    /// Parks `continuation` until ``resume(completedFuture:)``; resumes it at once if that came
    /// first.
    @inlinable func wait(with continuation: UnsafeContinuation<Value, any Error>) {
        lock.lock()
        guard isDone else {
            self.continuation = continuation
            lock.unlock()
            return
        }
        let source = earlySource
        earlySource = nil
        lock.unlock()
        continuation.resume(with: Self.result(of: source))
    }

    @inlinable static func result(of completedFuture: AnyObject?) -> Result<Value, any Error> {
        guard let completedFuture else {
            return .failure(CancellationError())
        }
        return Future<Value>.outcome(of: completedFuture)
    }
}
