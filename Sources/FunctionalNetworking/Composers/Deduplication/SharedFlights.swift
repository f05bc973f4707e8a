import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls in flight, one per ``RequestKey``, each shared by the identical callers that come
/// while it runs: the table behind ``RequestDeduplicator`` and behind the shared misses of
/// ``ResponseCache``.
///
/// The first caller for a key (the leader) makes the call itself, in its own task: a call
/// with nothing to share costs no task, no continuation and no thread hop, and a call that
/// completes without suspending answers its leader at once. Later identical callers wait for
/// it, each on its own continuation, and get the same answer, or the same error. A waiting
/// caller that is cancelled is resumed at once with `CancellationError` and leaves; the call
/// goes on for the others. A finished call leaves the table, so the next identical request
/// makes a call of its own.
///
/// Since the call runs in the leader's task, the leader's cancellation reaches it (with
/// nobody waiting, that is the cancellation of the call when its last caller leaves). When
/// the leader is cancelled and its call fails, that failure is the leader's alone: the callers
/// waiting for it start again (one of them makes the call; the others wait for that one), so
/// no caller ever gets a cancellation it did not ask for.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`.
final class SharedFlights: @unchecked Sendable {
    typealias Output = (Data, URLResponse)

    /// What a waiting caller is told.
    private enum Outcome: Sendable {
        /// The shared call's answer or error.
        case shared(Result<Output, any Error>)
        /// The leader was cancelled and its call failed: try again.
        case again
    }

    private typealias Waiter = CheckedContinuation<Outcome, Never>

    private let lock = NSLock()
    /// The calls in flight and, for each, the callers waiting for it by caller id. Only a
    /// call's leader removes it.
    private var flights: [RequestKey: [UInt64: Waiter]] = [:]
    private var lastID: UInt64 = 0

    /// The number of distinct calls in flight.
    var flightCount: Int {
        lock.withLock { flights.count }
    }

    /// The number of callers waiting for a call that another caller is making.
    var waiterCount: Int {
        lock.withLock { flights.values.reduce(0) { $0 + $1.count } }
    }

    /// The number of callers of all calls in flight: each call's leader and its waiters.
    var callerCount: Int {
        lock.withLock { flights.values.reduce(flights.count) { $0 + $1.count } }
    }

    /// Sends `request` through `next`, or waits for the identical call already in flight for
    /// `key`.
    ///
    /// - Throws: What the shared call throws; `CancellationError` to a caller cancelled while
    ///   it waits.
    func send(_ request: URLRequest, key: RequestKey, context: RequestContext, through next: Transport) async throws -> Output {
        while true {
            // One round of the lock decides: lead a new call, or wait for the one in flight.
            let (callerID, leading) = lock.withLock { () -> (UInt64, Bool) in
                lastID += 1
                guard flights[key] == nil else { return (lastID, false) }
                flights[key] = [:]
                return (lastID, true)
            }
            if leading {
                let output = try await lead(request, key: key, context: context.forSharedCall, through: next)
                try context.checkSize(of: output.0, for: request)
                return output
            }
            switch await wait(for: key, callerID: callerID) {
            case .shared(let result):
                let output = try result.get()
                try context.checkSize(of: output.0, for: request)
                return output
            case .again:
                try Task.checkCancellation()
            }
        }
    }

    /// Makes the call for `key` and hands its result to the callers waiting for it.
    private func lead(_ request: URLRequest, key: RequestKey, context: RequestContext, through next: Transport) async throws -> Output {
        let result: Result<Output, any Error>
        do {
            // The call is every caller's, so it runs with a context of its own, not the leader's:
            // each caller's own limit is applied to the answer it receives.
            result = .success(try await RequestContext.$current.withValue(context) { try await next(request) })
        } catch {
            result = .failure(error)
        }
        let waiters = lock.withLock { flights.removeValue(forKey: key) ?? [:] }
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

    /// Waits for the call in flight for `key`; `.again` when there is none any more.
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
                guard flights[key] != nil else {
                    lock.unlock()
                    waiter.resume(returning: .again)  // it ended since this caller looked
                    return
                }
                flights[key]?[callerID] = waiter
                lock.unlock()
            }
        } onCancel: {
            let waiter = lock.withLock { flights[key]?.removeValue(forKey: callerID) }
            waiter?.resume(returning: .shared(.failure(CancellationError())))
        }
    }
}
