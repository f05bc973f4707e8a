import Foundation

/// Races a piece of work against a timer for ``Composer/timeout(after:clock:)``, resuming the
/// caller with whichever ends first — or with `CancellationError` when the caller is
/// cancelled — without waiting for the loser.
///
/// A task group cannot do this: it waits for all of its children, so work that ignores
/// cancellation would hold the caller past its deadline. Here the work and the timer run in
/// unstructured tasks (which inherit the caller's task-local values and priority); the first
/// result resumes the caller's continuation, and both tasks are cancelled. The work may go on
/// in the background until it notices, and its result is dropped.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`.
final class DeadlineRace<Output: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Output, any Error>?
    private var outcome: Result<Output, any Error>?
    private var tasks: [Task<Void, Never>] = []

    /// Starts `work` and `timer`, and resumes `continuation` with the first to end (or with an
    /// outcome that ``finish(_:)`` already gave, when the caller was cancelled before this).
    func start(
        _ continuation: CheckedContinuation<Output, any Error>,
        work: @escaping @Sendable () async throws -> Output,
        timer: @escaping @Sendable () async throws -> Output
    ) {
        lock.lock()
        if let outcome {
            lock.unlock()
            continuation.resume(with: outcome)
            return
        }
        self.continuation = continuation
        lock.unlock()
        let runners = [work, timer].map { body in
            Task { [self] in
                do {
                    finish(.success(try await body()))
                } catch {
                    finish(.failure(error))
                }
            }
        }
        lock.lock()
        let finished = outcome != nil
        if !finished {
            tasks = runners
        }
        lock.unlock()
        if finished {
            runners.forEach { $0.cancel() }
        }
    }

    /// Gives the caller `result` if nothing did before, and cancels the work and the timer.
    func finish(_ result: Result<Output, any Error>) {
        lock.lock()
        guard outcome == nil else {
            lock.unlock()
            return
        }
        outcome = result
        let waiting = continuation
        continuation = nil
        let running = tasks
        tasks = []
        lock.unlock()
        waiting?.resume(with: result)
        running.forEach { $0.cancel() }
    }
}
