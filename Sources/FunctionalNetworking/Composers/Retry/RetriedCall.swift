import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call through the direct form of ``Composer/retry(_:clock:)``: its attempts and the waits
/// between them, one at a time, and the future of its answer.
///
/// The first attempt goes out at once, on the caller's thread, with no task. Each outcome is
/// decided on the thread that gives it, by the rules the awaited form follows
/// (``RetryPolicy/wait(afterAnswer:_:attempt:)`` and ``RetryPolicy/wait(afterFailure:attempt:)``);
/// a wait is a sleep on the composer's clock, in a task of its own. Cancelling the answer
/// cancels the attempt or the wait in progress, and no attempt starts after that.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class RetriedCall<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    private let policy: RetryPolicy
    private let clock: C
    private let next: DirectTransport
    private let request: URLRequest
    private let context: RequestContext
    /// The call's answer: the last attempt's, or the error that ended the call.
    private let answer = Promise<(Data, URLResponse)>()
    private let lock = NSLock()
    /// What stops the step in progress (the attempt in flight or the wait before the next), if
    /// any. Guarded by `lock`.
    private var stopStep: (@Sendable () -> Void)?
    /// The number of the attempt in flight, or of the one the wait in progress comes before.
    /// Guarded by `lock`.
    private var attemptNumber = 1
    /// Whether the answer was cancelled: then no attempt or wait starts. Guarded by `lock`.
    private var isCancelled = false

    /// A call of `request` through `next`, with `context`, retried as `policy` says and waiting
    /// on `clock`.
    init(policy: RetryPolicy, clock: C, next: @escaping DirectTransport, request: URLRequest, context: RequestContext) {
        self.policy = policy
        self.clock = clock
        self.next = next
        self.request = request
        self.context = context
    }

    /// Makes the first attempt and returns the future of the call's answer.
    func start() -> Future<(Data, URLResponse)> {
        answer.onCancel { [self] in cancel() }
        attempt(1)
        return answer
    }

    /// Makes attempt `number`, unless the call was cancelled.
    private func attempt(_ number: Int) {
        if number > 1, lock.withLock({ isCancelled }) {
            return
        }
        context.record?.noteAttempt(number)
        let attempt = next(request, context)
        guard hold(attempt, as: number) else { return }
        attempt.observe { [self] result in decide(result, attempt: endStep()) }
    }

    /// Answers with `result`, the outcome of attempt `number`, or waits and makes the next.
    private func decide(_ result: Result<(Data, URLResponse), any Error>, attempt number: Int) {
        let wait: Duration
        switch result {
        case .success(let (data, response)):
            guard let retryAfter = policy.wait(afterAnswer: response, data, attempt: number) else {
                answer.resolve(with: (data, response))
                return
            }
            wait = retryAfter
        case .failure(let error):
            do {
                wait = try policy.wait(afterFailure: error, attempt: number)
            } catch {
                answer.reject(with: error)
                return
            }
        }
        pause(for: wait, before: number + 1)
    }

    /// Waits `wait` on the clock, then makes attempt `number`; at once when there is nothing to
    /// wait.
    private func pause(for wait: Duration, before number: Int) {
        guard wait > .zero else {
            attempt(number)
            return
        }
        let clock = clock
        let deadline = clock.now.advanced(by: schedulable(wait))
        let sleep = Future<Void>.startedImmediately { try await clock.sleep(until: deadline, tolerance: nil) }
        guard hold(sleep, as: number) else { return }
        sleep.observe { [self] result in
            let number = endStep()
            switch result {
            case .success: attempt(number)
            case .failure(let error): answer.reject(with: error)
            }
        }
    }

    /// Makes `step` (an attempt, or the wait before attempt `number`) the step in progress, for
    /// ``cancel()`` to stop: `false`, with `step` cancelled, when the call was cancelled first.
    private func hold<Value: Sendable>(_ step: Future<Value>, as number: Int) -> Bool {
        let held = lock.withLock {
            guard !isCancelled else { return false }
            stopStep = { step.cancel() }
            attemptNumber = number
            return true
        }
        if !held {
            step.cancel()
        }
        return held
    }

    /// Ends the step in progress, which has given its outcome: the number of its attempt.
    private func endStep() -> Int {
        lock.withLock {
            stopStep = nil
            return attemptNumber
        }
    }

    /// Stops the call: cancels the attempt or the wait in progress; none starts after this.
    private func cancel() {
        let stop = lock.withLock {
            isCancelled = true
            defer { stopStep = nil }
            return stopStep
        }
        stop?()
    }
}
