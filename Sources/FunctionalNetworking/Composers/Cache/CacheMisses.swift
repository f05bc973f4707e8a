import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The misses a ``ResponseCache`` is fetching, one per ``RequestKey``: identical concurrent
/// misses share one call.
///
/// The first caller (the leader) makes the call itself, in its own task: a miss costs no task
/// of its own, no continuation and no thread hop. Later identical callers wait for it, each on
/// its own continuation, and get the same answer, or the same error. A waiting caller that is
/// cancelled is resumed at once with `CancellationError` and leaves.
///
/// Since the call runs in the leader's task, the leader's cancellation reaches it. When the
/// leader is cancelled and its call fails, that failure is the leader's alone: the callers
/// waiting for it start again (one of them makes the call; the others wait for that one), so
/// no caller ever gets a cancellation it did not ask for.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`.
final class CacheMisses: @unchecked Sendable {
    typealias Output = (Data, URLResponse)

    /// What a waiting caller is told.
    private enum Outcome: Sendable {
        /// The shared call's answer or error.
        case shared(Result<Output, any Error>)
        /// The leader was cancelled and its call failed: try again.
        case again
    }

    private typealias Waiter = CheckedContinuation<Outcome, Never>

    /// One call and the callers waiting for it, by caller id.
    private struct Miss {
        let id: UInt64
        var waiters: [UInt64: Waiter] = [:]
    }

    private let lock = NSLock()
    private var misses: [RequestKey: Miss] = [:]
    private var lastID: UInt64 = 0

    /// The number of callers waiting for a miss that another caller is fetching.
    var waiterCount: Int {
        lock.withLock { misses.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// Fetches `request` with `fetch`, or waits for the identical fetch already in flight.
    ///
    /// - Throws: What the shared fetch throws; `CancellationError` to a caller cancelled while
    ///   it waits.
    func send(_ request: URLRequest, key: RequestKey, through fetch: Transport) async throws -> Output {
        while true {
            let (callerID, leading) = lock.withLock { () -> (UInt64, Bool) in
                lastID += 1
                guard misses[key] == nil else { return (lastID, false) }
                misses[key] = Miss(id: lastID)
                return (lastID, true)
            }
            if leading {
                return try await lead(request, key: key, missID: callerID, through: fetch)
            }
            switch await wait(for: key, callerID: callerID) {
            case .shared(let result):
                return try result.get()
            case .again:
                try Task.checkCancellation()
            }
        }
    }

    /// Makes the call of miss `missID` and hands its result to the callers waiting for it.
    private func lead(_ request: URLRequest, key: RequestKey, missID: UInt64, through fetch: Transport) async throws
        -> Output
    {
        let result: Result<Output, any Error>
        do {
            result = .success(try await fetch(request))
        } catch {
            result = .failure(error)
        }
        let waiters: [UInt64: Waiter] = lock.withLock {
            guard misses[key]?.id == missID else { return [:] }
            return misses.removeValue(forKey: key)?.waiters ?? [:]
        }
        if !waiters.isEmpty {
            // A failure of a cancelled leader may be its own cancellation: not theirs to share.
            let handOver: Outcome
            if case .failure = result, Task.isCancelled {
                handOver = .again
            } else {
                handOver = .shared(result)
            }
            for waiter in waiters.values {
                waiter.resume(returning: handOver)
            }
        }
        return try result.get()
    }

    /// Waits for the miss in flight for `key`; `.again` when there is none any more.
    private func wait(for key: RequestKey, callerID: UInt64) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                lock.lock()
                // The task's cancelled flag is set before its cancellation handler runs, so
                // either the handler finds this waiter in the table, or this check sees the flag.
                if Task.isCancelled {
                    lock.unlock()
                    waiter.resume(returning: .shared(.failure(CancellationError())))
                    return
                }
                guard misses[key] != nil else {
                    lock.unlock()
                    waiter.resume(returning: .again)  // it ended since this caller looked
                    return
                }
                misses[key]?.waiters[callerID] = waiter
                lock.unlock()
            }
        } onCancel: {
            let waiter = lock.withLock { misses[key]?.waiters.removeValue(forKey: callerID) }
            waiter?.resume(returning: .shared(.failure(CancellationError())))
        }
    }
}
