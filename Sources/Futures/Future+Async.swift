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
        get async throws {
            if let outcome = result {
                return try outcome.get()
            }
            // The relay lets a cancelled task stop waiting at once, even when the future itself
            // goes on because something else still depends on it.
            let relay = Promise<Value>()
            whenComplete(retainingDependent: true) { source, _ in
                relay.completeDeferringCallbacks(with: Future.outcome(of: source)).pending
            }
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    relay.whenComplete(retainingDependent: false) { source, _ in
                        continuation.resume(with: Future.outcome(of: source))
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
