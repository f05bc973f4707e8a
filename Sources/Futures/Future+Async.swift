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
    /// future does: it is cancelled once nothing else depends on it (see ``cancel()``), and the
    /// task gets `CancellationError`. A future that has already completed returns at once,
    /// without suspending. The caller resumes in its own isolation.
    @inlinable
    public final var value: Value {
        // Always inlined: the fast path then runs in the caller without an async call (about
        // 10 ns instead of 300 for a completed future, measured by the benchmark package).
        @inline(__always) get async throws {
            if let outcome = result {
                return try outcome.get()
            }
            // The relay lets a cancelled task stop waiting at once, even when the future itself
            // goes on because something else still depends on it.
            let relay = AwaitingRelay<Value>()
            whenComplete(retainingDependent: true, target: relay) { source, target in
                let relay = unsafeDowncast(target.unsafelyUnwrapped, to: AwaitingRelay<Value>.self)
                return relay.completeDeferringCallbacks(with: Future.outcome(of: source)).pending
            }
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    relay.continuation = continuation
                    relay.whenComplete(retainingDependent: false) { source, _ in
                        let relay = unsafeDowncast(source, to: AwaitingRelay<Value>.self)
                        relay.continuation.unsafelyUnwrapped.resume(with: Future.outcome(of: source))
                        return nil
                    }
                }
            } onCancel: {
                relay.settle(with: .failure(CancellationError()))
                releaseChain(from: self)
            }
        }
    }
}

/// The future an awaiting task waits on (see ``Future/value``): completed by the awaited
/// future or by the task's cancellation, whichever comes first. It keeps the task's
/// continuation itself, so that neither callback it takes part in allocates a closure context.
@usableFromInline
final class AwaitingRelay<Value: Sendable>: Future<Value>, @unchecked Sendable {
    /// Set once, before the callback that resumes it is registered (under the lock, which
    /// orders the write before the callback's read).
    @exclusivity(unchecked) @usableFromInline var continuation: UnsafeContinuation<Value, any Error>?

    @inlinable init() {
        super.init()
    }
}
