import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The upstream calls a ``RequestDeduplicator`` has in flight, one per ``RequestKey``, and the
/// callers waiting for each.
///
/// Each call runs in an unstructured `Task` owned by this table, so that no caller's
/// cancellation reaches it while another caller still waits. The first caller (the leader)
/// starts it with `Task.immediate` where the platform has it: the call runs on the leader's
/// thread until it first suspends, so a call that ends without suspending (a cache hit below,
/// a stub) gives the leader its answer at once, with no thread hop and no continuation. When
/// the call suspends, the leader waits like every later caller: each suspends on its own
/// continuation, the call's end resumes all of them with the same result, and a caller that is
/// cancelled is resumed at once with `CancellationError` and leaves. When the last caller
/// leaves, the call is removed from the table and its task cancelled. A finished call is
/// removed too, so the next identical request goes upstream again.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`.
final class DedupeFlights: @unchecked Sendable {
    typealias Output = (Data, URLResponse)
    typealias Waiter = CheckedContinuation<Output, any Error>

    /// One upstream call and the callers waiting for it.
    private struct Flight {
        /// Tells this call from a later one for the same key.
        let id: UInt64
        /// Runs the upstream call; `nil` while it runs on its leader's thread.
        var task: Task<Void, Never>?
        /// The callers suspended on it, by caller id.
        var waiters: [UInt64: Waiter]
        /// The leader's caller id while it has not suspended yet: the call's result is kept
        /// for it in ``DedupeFlights/early``.
        var pendingLeader: UInt64?
    }

    private let lock = NSLock()
    private var flights: [RequestKey: Flight] = [:]
    /// The results of calls that ended before their leader suspended, by the leader's id.
    private var early: [UInt64: Result<Output, any Error>] = [:]
    private var lastID: UInt64 = 0

    /// The number of distinct upstream calls in flight.
    var flightCount: Int {
        lock.withLock { flights.count }
    }

    /// The number of callers waiting, over all calls.
    var waiterCount: Int {
        lock.withLock {
            flights.values.reduce(0) { $0 + $1.waiters.count + ($1.pendingLeader == nil ? 0 : 1) }
        }
    }

    /// Sends `request` through `next`, or joins the call already in flight for `key`.
    ///
    /// - Throws: What the upstream call throws, to every caller; `CancellationError` to a
    ///   caller cancelled while it waits.
    func send(_ request: URLRequest, key: RequestKey, through next: @escaping Transport) async throws -> Output {
        // One round of the lock decides: lead a new call, or join the one in flight.
        let (callerID, leading) = lock.withLock { () -> (UInt64, UInt64?) in
            lastID += 1
            let callerID = lastID
            guard flights[key] == nil, !Task.isCancelled else {
                return (callerID, nil)
            }
            lastID += 1
            flights[key] = Flight(id: lastID, task: nil, waiters: [:], pendingLeader: callerID)
            return (callerID, lastID)
        }
        return try await withTaskCancellationHandler {
            if let leading {
                return try await lead(request, key: key, flightID: leading, callerID: callerID, through: next)
            }
            return try await withCheckedThrowingContinuation { (waiter: Waiter) in
                join(key: key, waiterID: callerID, waiter: waiter, request: request, next: next)
            }
        } onCancel: {
            leave(key: key, waiterID: callerID)
        }
    }

    /// Starts the call of flight `flightID`, and waits for it unless it ended at once.
    private func lead(
        _ request: URLRequest,
        key: RequestKey,
        flightID: UInt64,
        callerID: UInt64,
        through next: @escaping Transport
    ) async throws -> Output {
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate { [self] in await run(request, key: key, flightID: flightID, through: next) }
        } else {
            task = Task { [self] in await run(request, key: key, flightID: flightID, through: next) }
        }
        let ended: Result<Output, any Error>? = lock.withLock {
            if let result = early.removeValue(forKey: callerID) {
                return result
            }
            flights[key]?.task = task
            return nil
        }
        if let ended {
            return try ended.get()
        }
        return try await withCheckedThrowingContinuation { (waiter: Waiter) in
            lock.lock()
            if let result = early.removeValue(forKey: callerID) {
                lock.unlock()
                waiter.resume(with: result)
                return
            }
            // Until the call ends, the flight stays in the table with this leader pending.
            flights[key]?.pendingLeader = nil
            // The task's cancelled flag is set before its cancellation handler runs, so either
            // the handler finds this waiter in the table, or this check sees the flag.
            if Task.isCancelled {
                var abandoned: Task<Void, Never>?
                if flights[key]?.waiters.isEmpty == true {
                    abandoned = flights.removeValue(forKey: key)?.task
                }
                lock.unlock()
                waiter.resume(throwing: CancellationError())
                abandoned?.cancel()
                return
            }
            flights[key]?.waiters[callerID] = waiter
            lock.unlock()
        }
    }

    /// Adds `waiter` to the call for `key`, starting the call if there is none (it ended since
    /// this caller looked).
    private func join(
        key: RequestKey,
        waiterID: UInt64,
        waiter: Waiter,
        request: URLRequest,
        next: @escaping Transport
    ) {
        lock.lock()
        // The task's cancelled flag is set before its cancellation handler runs, so either the
        // handler finds this waiter in the table, or this check sees the flag.
        if Task.isCancelled {
            lock.unlock()
            waiter.resume(throwing: CancellationError())
            return
        }
        if flights[key] != nil {
            flights[key]?.waiters[waiterID] = waiter
            lock.unlock()
            return
        }
        lastID += 1
        let flightID = lastID
        let task = Task { [self] in await run(request, key: key, flightID: flightID, through: next) }
        flights[key] = Flight(id: lastID, task: task, waiters: [waiterID: waiter], pendingLeader: nil)
        lock.unlock()
    }

    /// Resumes a cancelled caller with `CancellationError`; cancels the upstream call when it
    /// was the last caller waiting for it.
    private func leave(key: RequestKey, waiterID: UInt64) {
        lock.lock()
        guard let waiter = flights[key]?.waiters.removeValue(forKey: waiterID) else {
            // Already resumed by the call's end, never joined (see `join`), or a leader that
            // has not suspended yet (it sees the flag when it does).
            lock.unlock()
            return
        }
        var abandoned: Task<Void, Never>?
        if flights[key]?.waiters.isEmpty == true, flights[key]?.pendingLeader == nil {
            abandoned = flights.removeValue(forKey: key)?.task
        }
        lock.unlock()
        waiter.resume(throwing: CancellationError())
        abandoned?.cancel()
    }

    /// Sends the request of flight `flightID` and hands the result to its callers.
    private func run(_ request: URLRequest, key: RequestKey, flightID: UInt64, through next: Transport) async {
        let result: Result<Output, any Error>
        do {
            result = .success(try await next(request))
        } catch {
            result = .failure(error)
        }
        finish(key: key, flightID: flightID, with: result)
    }

    /// Removes the call and gives its result to every caller still waiting.
    private func finish(key: RequestKey, flightID: UInt64, with result: Result<Output, any Error>) {
        lock.lock()
        guard flights[key]?.id == flightID, let flight = flights.removeValue(forKey: key) else {
            // Every caller left; the call was removed when the last one did.
            lock.unlock()
            return
        }
        if let leader = flight.pendingLeader {
            early[leader] = result
        }
        lock.unlock()
        for waiter in flight.waiters.values {
            waiter.resume(with: result)
        }
    }
}
