import Foundation

/// Runs an operation in a child `Task` and hands its result to one waiting caller, or
/// `CancellationError` as soon as ``cancel()`` is called, whichever comes first.
///
/// - Note: Owns a lock, hence `@unchecked Sendable`.
final class CancelRelay<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var task: Task<Void, Never>?
    private var isCancelled = false

    init() {}

    /// Starts `operation` in a child task and waits for its result or for ``cancel()``.
    func run(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if isCancelled {
                lock.unlock()
                continuation.resume(throwing: CancellationError())
                return
            }
            self.continuation = continuation
            let task = Task {
                do {
                    self.finish(with: .success(try await operation()))
                } catch {
                    self.finish(with: .failure(CancelRelay.reported(error)))
                }
            }
            self.task = task  // `finish` waits for the lock, so it runs after this
            lock.unlock()
        }
    }

    /// Cancels the child task and resumes the caller with `CancellationError`.
    func cancel() {
        lock.lock()
        isCancelled = true
        let continuation = self.continuation
        let task = self.task
        self.continuation = nil
        self.task = nil
        lock.unlock()
        task?.cancel()
        continuation?.resume(throwing: CancellationError())
    }

    private func finish(with result: Result<Value, any Error>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        task = nil
        lock.unlock()
        continuation?.resume(with: result)
    }

    /// `URLError.cancelled` becomes `CancellationError`; other errors stay.
    private static func reported(_ error: any Error) -> any Error {
        LogFormat.isCancellation(error) ? CancellationError() : error
    }
}
