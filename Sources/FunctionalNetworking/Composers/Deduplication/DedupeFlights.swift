import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The upstream calls a ``RequestDeduplicator`` has in flight, one per ``RequestKey``, and the
/// callers waiting for each.
///
/// Each call runs in an unstructured `Task` owned by this table, so that no caller's
/// cancellation reaches it while another caller still waits. Every caller suspends on its own
/// continuation: the call's end resumes all of them with the same result, and a caller that is
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
        /// Runs the upstream call.
        let task: Task<Void, Never>
        /// The callers waiting, by caller id.
        var waiters: [UInt64: Waiter]
    }

    private let lock = NSLock()
    private var flights: [RequestKey: Flight] = [:]
    private var lastID: UInt64 = 0

    /// The number of distinct upstream calls in flight.
    var flightCount: Int {
        lock.withLock { flights.count }
    }

    /// The number of callers waiting, over all calls.
    var waiterCount: Int {
        lock.withLock { flights.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// Sends `request` through `next`, or joins the call already in flight for `key`.
    ///
    /// - Throws: What the upstream call throws, to every caller; `CancellationError` to a
    ///   caller cancelled while it waits.
    func send(_ request: URLRequest, key: RequestKey, through next: @escaping Transport) async throws -> Output {
        let waiterID = nextID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                join(key: key, waiterID: waiterID, waiter: waiter, request: request, next: next)
            }
        } onCancel: {
            leave(key: key, waiterID: waiterID)
        }
    }

    private func nextID() -> UInt64 {
        lock.withLock {
            lastID += 1
            return lastID
        }
    }

    /// Adds `waiter` to the call for `key`, starting the call if there is none.
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
        let task = Task { [self] in
            let result: Result<Output, any Error>
            do {
                result = .success(try await next(request))
            } catch {
                result = .failure(error)
            }
            finish(key: key, flightID: flightID, with: result)
        }
        flights[key] = Flight(id: flightID, task: task, waiters: [waiterID: waiter])
        lock.unlock()
    }

    /// Resumes a cancelled caller with `CancellationError`; cancels the upstream call when it
    /// was the last caller waiting for it.
    private func leave(key: RequestKey, waiterID: UInt64) {
        lock.lock()
        guard let waiter = flights[key]?.waiters.removeValue(forKey: waiterID) else {
            // Already resumed by the call's end, or never joined (see `join`).
            lock.unlock()
            return
        }
        var abandoned: Task<Void, Never>?
        if flights[key]?.waiters.isEmpty == true {
            abandoned = flights.removeValue(forKey: key)?.task
        }
        lock.unlock()
        waiter.resume(throwing: CancellationError())
        abandoned?.cancel()
    }

    /// Removes the call and gives its result to every caller still waiting.
    private func finish(key: RequestKey, flightID: UInt64, with result: Result<Output, any Error>) {
        lock.lock()
        guard flights[key]?.id == flightID, let flight = flights.removeValue(forKey: key) else {
            // Every caller left; the call was removed when the last one did.
            lock.unlock()
            return
        }
        lock.unlock()
        for waiter in flight.waiters.values {
            waiter.resume(with: result)
        }
    }
}
