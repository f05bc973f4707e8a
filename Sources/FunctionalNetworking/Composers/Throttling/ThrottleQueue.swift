import Foundation

/// The slots of a ``RequestThrottle`` and the callers waiting for one.
///
/// A caller takes a slot at once when both the overall limit and its host's limit allow it;
/// otherwise it suspends on a continuation in its host's first-in, first-out queue. Whenever a
/// slot is given back, the longest-waiting caller that may go (whose host is under its limit) is
/// resumed, so callers waiting only for a busy host do not hold back callers for other hosts.
/// Nothing polls: every change happens under the lock, when a caller arrives, leaves or gives a
/// slot back.
///
/// A cancelled caller is removed at once: it is dropped from the table of waiters (its id stays
/// in its host's queue and is skipped when reached) and resumed with `CancellationError`.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`.
final class ThrottleQueue: @unchecked Sendable {
    typealias Continuation = CheckedContinuation<Void, any Error>

    private struct Waiter {
        let host: ThrottleHost
        /// Arrival order over all hosts, to pick the oldest among the queues' heads.
        let sequence: UInt64
        let continuation: Continuation
    }

    let maxConcurrent: Int
    let maxPerHost: Int?

    private let lock = NSLock()
    private var inFlight = 0
    private var inFlightByHost: [ThrottleHost: Int] = [:]
    /// The callers waiting, by id; the single source of truth for who still waits.
    private var waiting: [UInt64: Waiter] = [:]
    /// Waiter ids per host in arrival order; may hold ids of callers that have left.
    private var queues: [ThrottleHost: ThrottleFIFO] = [:]
    private var lastID: UInt64 = 0

    /// - Parameters:
    ///   - maxConcurrent: The overall limit, at least 1.
    ///   - maxPerHost: The limit per host, at least 1, or `nil` for none.
    init(maxConcurrent: Int, maxPerHost: Int?) {
        self.maxConcurrent = maxConcurrent
        self.maxPerHost = maxPerHost
    }

    /// The number of slots taken.
    var inFlightCount: Int {
        lock.withLock { inFlight }
    }

    /// The number of callers waiting for a slot.
    var waitingCount: Int {
        lock.withLock { waiting.count }
    }

    /// Returns once the caller holds a slot for `host`; it must give it back with
    /// ``release(_:)``.
    ///
    /// - Throws: `CancellationError`, holding no slot, when the task is cancelled before it gets
    ///   one.
    func acquire(_ host: ThrottleHost) async throws {
        let id: UInt64? = lock.withLock {
            if hasRoom(for: host) {
                take(host)
                return nil
            }
            lastID += 1
            return lastID
        }
        guard let id else {
            return
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Continuation) in
                enqueue(id: id, host: host, continuation: continuation)
            }
        } onCancel: {
            let continuation = lock.withLock { waiting.removeValue(forKey: id)?.continuation }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Gives back a slot for `host`, and resumes the callers that may now go.
    func release(_ host: ThrottleHost) {
        let granted: [Continuation] = lock.withLock {
            inFlight -= 1
            if maxPerHost != nil {
                let remaining = (inFlightByHost[host] ?? 1) - 1
                inFlightByHost[host] = remaining > 0 ? remaining : nil
            }
            guard !waiting.isEmpty else {
                // Nobody waits (the common case): no queue to walk; ids left behind by callers
                // that were cancelled while waiting go.
                if !queues.isEmpty {
                    queues.removeAll()
                }
                return []
            }
            return grantFreedSlots()
        }
        for continuation in granted {
            continuation.resume()
        }
    }

    private func enqueue(id: UInt64, host: ThrottleHost, continuation: Continuation) {
        lock.lock()
        // The task's cancelled flag is set before its cancellation handler runs, so either the
        // handler finds this waiter in the table, or this check sees the flag.
        if Task.isCancelled {
            lock.unlock()
            continuation.resume(throwing: CancellationError())
            return
        }
        // A slot may have been freed since `acquire` looked.
        if hasRoom(for: host) {
            take(host)
            lock.unlock()
            continuation.resume()
            return
        }
        waiting[id] = Waiter(host: host, sequence: id, continuation: continuation)
        queues[host, default: ThrottleFIFO()].append(id)
        lock.unlock()
    }

    /// Whether a caller for `host` may take a slot now; the lock must be held.
    ///
    /// After every change the waiters that may go have been resumed, so when there is room
    /// nobody for `host` is waiting, and taking the slot keeps first in, first out.
    private func hasRoom(for host: ThrottleHost) -> Bool {
        inFlight < maxConcurrent && hostHasRoom(host)
    }

    private func hostHasRoom(_ host: ThrottleHost) -> Bool {
        guard let maxPerHost else { return true }
        return inFlightByHost[host, default: 0] < maxPerHost
    }

    /// Counts a slot as taken for `host`; the lock must be held.
    private func take(_ host: ThrottleHost) {
        inFlight += 1
        if maxPerHost != nil {  // without a limit per host, nothing reads the count per host
            inFlightByHost[host, default: 0] += 1
        }
    }

    /// Gives free slots to the longest-waiting callers that may go; the lock must be held.
    ///
    /// - Returns: The continuations to resume, after the lock is released.
    private func grantFreedSlots() -> [Continuation] {
        var granted: [Continuation] = []
        while inFlight < maxConcurrent, let next = oldestWaiterThatMayGo() {
            queues[next.host]?.removeFirst()
            if queues[next.host]?.isEmpty == true {
                queues[next.host] = nil
            }
            waiting[next.id] = nil
            take(next.host)
            granted.append(next.continuation)
        }
        return granted
    }

    /// The oldest waiter, over the heads of the hosts' queues, whose host is under its limit;
    /// drops the ids of callers that have left on the way. The lock must be held.
    private func oldestWaiterThatMayGo() -> (id: UInt64, host: ThrottleHost, continuation: Continuation)? {
        var oldest: (id: UInt64, host: ThrottleHost, waiter: Waiter)?
        for host in Array(queues.keys) {
            // Moved out of the table so that it is changed in place, not copied.
            guard var queue = queues.removeValue(forKey: host) else { continue }
            while let id = queue.first, waiting[id] == nil {
                queue.removeFirst()
            }
            guard let id = queue.first, let waiter = waiting[id] else {
                continue  // Everyone in this queue has left; the queue stays removed.
            }
            queues[host] = queue
            if hostHasRoom(host), waiter.sequence < (oldest?.waiter.sequence ?? .max) {
                oldest = (id, host, waiter)
            }
        }
        return oldest.map { ($0.id, $0.host, $0.waiter.continuation) }
    }
}
