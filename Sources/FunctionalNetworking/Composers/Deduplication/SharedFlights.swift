import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls in flight, one per ``RequestKey``, each shared by the identical callers that come
/// while it runs: the table behind ``RequestDeduplicator`` and behind the shared misses of
/// ``ResponseCache``.
///
/// The first caller for a key (the leader) makes the call itself: an awaiting leader in its own
/// task, a leader on the direct path as a future that it follows. A call with nothing to share
/// costs no task, no continuation and no thread hop, and a call that completes without
/// suspending answers its leader at once. Later identical callers wait for it, in one table
/// whatever their shape (an awaiting caller on its own continuation, a direct one as the work
/// to do with the answer), and get the same answer, or the same error. A waiting caller that is
/// cancelled leaves at once (an awaiting one is resumed with `CancellationError`); the call goes
/// on for the others. A finished call leaves the table, so the next identical request makes a
/// call of its own.
///
/// The call runs with a context of its own (``RequestContext/forSharedCall``), and the leader's
/// cancellation reaches it (with nobody waiting, that is the cancellation of the call when its
/// last caller leaves). When the leader is cancelled and its call fails, that failure is the
/// leader's alone: the callers waiting for it start again (one of them makes the call; the
/// others wait for that one), so no caller ever gets a cancellation it did not ask for.
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

    /// A caller waiting for another's call.
    private enum Waiter {
        /// An awaiting caller, suspended on its continuation.
        case task(CheckedContinuation<Outcome, Never>)
        /// A caller on the direct path: what to do with the outcome.
        case direct(@Sendable (Outcome) -> Void)

        /// Hands `outcome` to the caller; never with the lock held.
        func resume(with outcome: Outcome) {
            switch self {
            case .task(let continuation): continuation.resume(returning: outcome)
            case .direct(let receive): receive(outcome)
            }
        }
    }

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

    // MARK: - Both shapes

    /// One round of the lock decides: lead a new call for `key`, or wait for the one in flight.
    ///
    /// - Returns: The caller's id, and whether it leads (it then must ``land(_:with:leaderCancelled:)``
    ///   the call).
    private func join(_ key: RequestKey) -> (callerID: UInt64, leading: Bool) {
        lock.withLock {
            lastID += 1
            guard flights[key] == nil else { return (lastID, false) }
            flights[key] = [:]
            return (lastID, true)
        }
    }

    /// Ends the call for `key` with `result`, and hands it to the callers waiting for it; a
    /// failure of a cancelled leader (`leaderCancelled`, read only then) may be its own
    /// cancellation, not theirs to share, so they are told to start again.
    private func land(_ key: RequestKey, with result: Result<Output, any Error>, leaderCancelled: @autoclosure () -> Bool) {
        let waiters = lock.withLock { flights.removeValue(forKey: key) ?? [:] }
        guard !waiters.isEmpty else { return }
        let handOver: Outcome
        if case .failure = result, leaderCancelled() {
            handOver = .again
        } else {
            handOver = .shared(result)
        }
        for waiter in waiters.values {
            waiter.resume(with: handOver)
        }
    }

    /// Removes the waiting caller `callerID` of `key`'s call, if it still waits.
    private func withdraw(_ callerID: UInt64, of key: RequestKey) -> Waiter? {
        lock.withLock { flights[key]?.removeValue(forKey: callerID) }
    }

    /// `result`, or the error of an answer larger than `context` allows.
    private static func checked(_ result: Result<Output, any Error>, for request: URLRequest, context: RequestContext) -> Result<
        Output, any Error
    > {
        result.flatMap { output in
            Result {
                try context.checkSize(of: output.0, for: request)
                return output
            }
        }
    }

    // MARK: - Awaited

    /// Sends `request` through `next`, or waits for the identical call already in flight for
    /// `key`.
    ///
    /// - Throws: What the shared call throws; `CancellationError` to a caller cancelled while
    ///   it waits.
    func send(_ request: URLRequest, key: RequestKey, context: RequestContext, through next: Transport) async throws -> Output {
        while true {
            let (callerID, leading) = join(key)
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
        land(key, with: result, leaderCancelled: Task.isCancelled)
        return try result.get()
    }

    /// Waits for the call in flight for `key`; `.again` when there is none any more.
    private func wait(for key: RequestKey, callerID: UInt64) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Outcome, Never>) in
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
                flights[key]?[callerID] = .task(waiter)
                lock.unlock()
            }
        } onCancel: {
            withdraw(callerID, of: key)?.resume(with: .shared(.failure(CancellationError())))
        }
    }

    // MARK: - Direct

    /// The direct form of ``send(_:key:context:through:)``: the future of the shared call's
    /// answer. Cancelling it takes a waiting caller out of the table (the call goes on for the
    /// others), or cancels the call this caller makes.
    func send(_ request: URLRequest, key: RequestKey, context: RequestContext, through next: @escaping DirectTransport) -> Future<Output> {
        let (callerID, leading) = join(key)
        if leading {
            return lead(request, key: key, context: context, through: next, into: Promise())
        }
        let promise = Promise<Output>()
        wait(request, key: key, callerID: callerID, context: context, through: next, into: promise)
        return promise
    }

    /// Joins the call for `key` again (after `.again`), or makes it, completing `promise`.
    private func rejoin(
        _ request: URLRequest, key: RequestKey, context: RequestContext, through next: @escaping DirectTransport,
        into promise: Promise<Output>
    ) {
        let (callerID, leading) = join(key)
        if leading {
            _ = lead(request, key: key, context: context, through: next, into: promise)
        } else {
            wait(request, key: key, callerID: callerID, context: context, through: next, into: promise)
        }
    }

    /// Makes the call for `key` in a context of its own, hands its result to the callers waiting
    /// for it, and completes `leader` with it; cancelling `leader` cancels the call.
    private func lead(
        _ request: URLRequest, key: RequestKey, context: RequestContext, through next: @escaping DirectTransport,
        into leader: Promise<Output>
    ) -> Future<Output> {
        let call = next(request, context.forSharedCall)
        call.observe { [self] result in
            // Only this observer completes `leader` otherwise: if it has completed, it was cancelled.
            land(key, with: result, leaderCancelled: !leader.isPending)
            leader.complete(with: Self.checked(result, for: request, context: context))
        }
        leader.onCancel { call.cancel() }
        return leader
    }

    /// Waits in the table as `callerID` for the call in flight for `key`, completing `promise`
    /// with its answer; joins again if there is none any more, or when told to.
    private func wait(
        _ request: URLRequest, key: RequestKey, callerID: UInt64, context: RequestContext, through next: @escaping DirectTransport,
        into promise: Promise<Output>
    ) {
        let receive: @Sendable (Outcome) -> Void = { [self] outcome in
            switch outcome {
            case .shared(let result):
                promise.complete(with: Self.checked(result, for: request, context: context))
            case .again:
                guard promise.isPending else { return }
                rejoin(request, key: key, context: context, through: next, into: promise)
            }
        }
        let added = lock.withLock {
            guard flights[key] != nil else { return false }
            flights[key]?[callerID] = .direct(receive)
            return true
        }
        guard added else {
            rejoin(request, key: key, context: context, through: next, into: promise)  // it ended since this caller looked
            return
        }
        promise.onCancel { [self] in _ = withdraw(callerID, of: key) }
    }
}
