import Foundation

/// The slots of a ``RequestThrottle`` and the callers waiting for one, awaited and direct alike.
///
/// A caller takes a slot at once when both the overall limit and its host's limit allow it;
/// otherwise it waits in its host's first-in, first-out queue: an awaiting caller suspends on a
/// continuation, a caller on the direct path leaves the work to start once it has a slot. Both
/// kinds wait in the same queues, in one order. Whenever a slot is given back, the
/// longest-waiting caller that may go (whose host is under its limit) is resumed or started, on
/// the thread that gave the slot back, so callers waiting only for a busy host do not hold back
/// callers for other hosts. Nothing polls: every change happens under the lock, when a caller
/// arrives, leaves or gives a slot back.
///
/// A cancelled caller is removed at once: it is dropped from the table of waiters (its id stays
/// in its host's queue and is skipped when reached); an awaiting one is resumed with
/// `CancellationError`.
///
/// - Note: Owns a lock that guards all of its state, hence `@unchecked Sendable`.
final class ThrottleQueue: @unchecked Sendable {
    typealias Continuation = CheckedContinuation<Void, any Error>

    /// How a waiting caller is told that it holds a slot.
    enum Resumption {
        /// An awaiting caller: its continuation is resumed.
        case task(Continuation)
        /// A caller on the direct path: its work starts, on the thread that freed the slot.
        case direct(@Sendable () -> Void)

        /// Tells the caller it holds its slot; never with the lock held.
        func resume() {
            switch self {
            case .task(let continuation): continuation.resume()
            case .direct(let start): start()
            }
        }
    }

    private struct Waiter {
        let host: ThrottleHost
        /// Arrival order over all hosts, to pick the oldest among the queues' heads.
        let sequence: UInt64
        let resumption: Resumption
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
            if case .task(let continuation) = withdraw(id) {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Takes a slot for `host` if both limits allow it now.
    ///
    /// - Returns: Whether the caller holds a slot; it must give it back with ``release(_:)``.
    func takeIfFree(_ host: ThrottleHost) -> Bool {
        lock.withLock {
            guard hasRoom(for: host) else { return false }
            take(host)
            return true
        }
    }

    /// For a caller on the direct path: takes a slot for `host` if one has come free, or queues
    /// `start` to run once the caller holds one (on the thread that frees it, never with the
    /// lock held).
    ///
    /// - Returns: `nil` when the caller holds a slot now (`start` will not run); otherwise the
    ///   caller's id, for ``withdraw(_:)``.
    func enqueue(_ host: ThrottleHost, start: @escaping @Sendable () -> Void) -> UInt64? {
        lock.withLock {
            if hasRoom(for: host) {
                take(host)
                return nil
            }
            lastID += 1
            waiting[lastID] = Waiter(host: host, sequence: lastID, resumption: .direct(start))
            queues[host, default: ThrottleFIFO()].append(lastID)
            return lastID
        }
    }

    /// Removes the caller `id` from the queue if it still waits, holding no slot.
    ///
    /// - Returns: How it would have been told, for the caller to resume it; `nil` when it was
    ///   no longer waiting (it holds a slot, or left already).
    @discardableResult
    func withdraw(_ id: UInt64) -> Resumption? {
        lock.withLock { waiting.removeValue(forKey: id)?.resumption }
    }

    /// Gives back a slot for `host`, and resumes (or starts) the callers that may now go, on
    /// this thread.
    func release(_ host: ThrottleHost) {
        let granted: [Resumption]? = lock.withLock {
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
                return nil
            }
            return grantFreedSlots()
        }
        guard let granted else { return }
        for resumption in granted {
            resumption.resume()
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
        waiting[id] = Waiter(host: host, sequence: id, resumption: .task(continuation))
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
    /// - Returns: How to tell the callers, after the lock is released.
    private func grantFreedSlots() -> [Resumption] {
        var granted: [Resumption] = []
        while inFlight < maxConcurrent, let next = oldestWaiterThatMayGo() {
            queues[next.host]?.removeFirst()
            if queues[next.host]?.isEmpty == true {
                queues[next.host] = nil
            }
            waiting[next.id] = nil
            take(next.host)
            granted.append(next.resumption)
        }
        return granted
    }

    /// The oldest waiter, over the heads of the hosts' queues, whose host is under its limit;
    /// drops the ids of callers that have left on the way. The lock must be held.
    private func oldestWaiterThatMayGo() -> (id: UInt64, host: ThrottleHost, resumption: Resumption)? {
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
        return oldest.map { ($0.id, $0.host, $0.waiter.resumption) }
    }
}
