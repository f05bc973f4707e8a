import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Races a piece of work against a timer for ``Composer/timeout(after:clock:)``, resuming the
/// caller with whichever ends first — or with `CancellationError` when the caller is
/// cancelled — without waiting for the loser.
///
/// A task group cannot do this: it waits for all of its children, so work that ignores
/// cancellation would hold the caller past its deadline. Here the work runs in an unstructured
/// task of its own (which inherits the caller's task-local values and priority), started with
/// `Task.immediate` where the platform has it: it runs on the caller's thread until it first
/// suspends, so work that answers without suspending (a cache hit, a stub) costs neither a
/// thread hop nor a timer. Only when the work suspends does a timer task start, and the caller
/// wait on a continuation; the first result resumes it, and both tasks are cancelled. The work
/// may go on in the background until it notices, and its result is dropped.
///
/// - Note: Holds the lock that guards all of its state (its composer's), hence
///   `@unchecked Sendable`.
final class DeadlineRace: @unchecked Sendable {
    typealias Output = (Data, URLResponse)

    private let request: URLRequest
    private let next: Transport
    /// Shared by every race of one composer: the sections it guards are a few assignments,
    /// and a lock of its own would cost each request two allocations (the lock and its mutex).
    private let lock: NSLock
    private var continuation: CheckedContinuation<Output, any Error>?
    private var outcome: Result<Output, any Error>?
    private var work: Task<Void, Never>?
    private var timer: Task<Void, Never>?

    /// A race for sending `request` through `next`, its state guarded by `lock`.
    init(_ request: URLRequest, through next: @escaping Transport, lock: NSLock) {
        self.request = request
        self.next = next
        self.lock = lock
    }

    /// Sends the request, and, if that suspends before it ends, runs the timer that `timer`
    /// makes beside it; returns or throws what ends first, or `CancellationError` as soon as
    /// the caller is cancelled.
    ///
    /// - Parameters:
    ///   - expired: Whether the deadline has passed, asked when the work ended without
    ///     suspending (a late answer is a timeout, as it would have been had it suspended).
    ///   - timeout: The error at the deadline.
    ///   - timer: Makes the wait until the deadline (which throws `CancellationError` when
    ///     cancelled); called only when the work suspends.
    func run(
        expired: () -> Bool,
        timeout: @autoclosure () -> any Error,
        timer makeTimer: () -> @Sendable () async throws -> Void
    ) async throws -> Output {
        try await withTaskCancellationHandler {
            if let outcome = lock.withLock({ outcome }) {
                return try outcome.get()  // cancelled before it began: nothing is started
            }
            // The closures capture only `self`, which so serves as their context (no allocation).
            let started: Task<Void, Never>
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                started = Task.immediate { [self] in await send() }
            } else {
                started = Task { [self] in await send() }
            }
            let ended: Result<Output, any Error>? = lock.withLock {
                if outcome == nil {
                    self.work = started
                }
                return outcome
            }
            if let ended {
                started.cancel()  // the caller was cancelled meanwhile: the work stops too
                if case .failure(let error) = ended, error is CancellationError {
                    throw error
                }
                if expired() {
                    throw timeout()
                }
                return try ended.get()
            }
            let timeoutError = timeout()
            let timer = makeTimer()
            let timing = Task { [self] in
                do {
                    try await timer()
                    finish(.failure(timeoutError))
                } catch {
                    finish(.failure(error))
                }
            }
            let timedOut = lock.withLock {
                if outcome == nil {
                    self.timer = timing
                }
                return outcome != nil
            }
            if timedOut {
                timing.cancel()
            }
            return try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if let outcome {
                    lock.unlock()
                    continuation.resume(with: outcome)
                    return
                }
                self.continuation = continuation
                lock.unlock()
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// Sends the request, and finishes with its answer.
    private func send() async {
        do {
            finish(.success(try await next(request)))
        } catch {
            finish(.failure(error))
        }
    }

    /// Gives the caller `result` if nothing did before, and cancels the work and the timer.
    private func finish(_ result: Result<Output, any Error>) {
        lock.lock()
        guard outcome == nil else {
            lock.unlock()
            return
        }
        outcome = result
        let waiting = continuation
        continuation = nil
        let running = (work, timer)
        work = nil
        timer = nil
        lock.unlock()
        waiting?.resume(with: result)
        running.0?.cancel()
        running.1?.cancel()
    }
}
