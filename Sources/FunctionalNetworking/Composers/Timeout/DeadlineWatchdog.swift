import Foundation
import Futures

/// One timer for every pending deadline of a ``Composer/timeout(after:clock:)`` composer: a
/// single task sleeps until the earliest deadline, expires what is due, and sleeps again until
/// the next one, so that a request costs an entry in a list, not a task of its own.
///
/// The entries are kept in the order of their deadlines. The deadlines of one composer are the
/// arrival times plus one limit, so a new entry nearly always goes at the end; one that comes
/// before the timer's wake-up restarts the timer. An entry removed before its deadline leaves
/// the list once it reaches the front; the timer wakes at most once for it, and ends when
/// nothing is left to watch. Its user holds it through an ``Owner``, whose release cancels the
/// timer: asleep until a deadline its clock never reaches (a test clock), the timer would
/// otherwise keep its task, the watchdog and the clock for ever.
final class DeadlineWatchdog<C: Clock>: @unchecked Sendable {
    /// Holds a watchdog for its user (the timeout composer) and stops its timer once released.
    /// The timer holds the watchdog itself while it sleeps, so the watchdog outlives its user
    /// until then.
    final class Owner: Sendable {
        let watchdog: DeadlineWatchdog

        /// An owner of a new watchdog on `clock`.
        init(clock: C) {
            watchdog = DeadlineWatchdog(clock: clock)
        }

        deinit {
            watchdog.stop()
        }
    }

    /// A deadline being watched; what runs when it passes is kept by the watchdog, under its
    /// lock, until the deadline passes or the entry is removed.
    final class Entry: Sendable {
        let deadline: C.Instant

        fileprivate init(deadline: C.Instant) {
            self.deadline = deadline
        }
    }

    private let clock: C
    private let lock = NSLock()
    /// The entries from ``head`` on, in the order of their deadlines; the ones before are gone.
    private var entries: [Entry] = []
    /// What runs when each pending entry's deadline passes; an entry missing here was removed
    /// or has expired.
    private var expiries: [ObjectIdentifier: @Sendable () -> Void] = [:]
    private var head = 0
    /// The deadline the running timer sleeps until, and which timer that is: a timer that finds
    /// another generation current has been replaced and ends.
    private var wake: C.Instant?
    private var generation = 0
    /// The running timer's task, cancelled when a timer for an earlier deadline replaces it or
    /// the owner is released.
    private var timer: Task<Void, Never>?

    init(clock: C) {
        self.clock = clock
    }

    /// The future of `answer`'s result, or of `TimeoutError(limit:)` if `deadline` passes first;
    /// then `answer` is cancelled and what it gives later is dropped. Cancelling the returned
    /// future cancels `answer`.
    func bound<Value: Sendable>(_ answer: Future<Value>, until deadline: C.Instant, limit: Duration) -> Future<Value> {
        guard answer.isPending else { return answer }  // answered at once: no timer
        let bounded = Promise<Value>()
        let entry = watch(until: deadline) {
            if bounded.reject(with: TimeoutError(limit: limit)) {
                answer.cancel()
            }
        }
        answer.observe { [self] result in
            remove(entry)
            bounded.complete(with: result)
        }
        bounded.onCancel { [self] in
            remove(entry)
            answer.cancel()
        }
        return bounded
    }

    /// Watches `deadline`: `expire` runs on the timer's task if it passes before ``remove(_:)``.
    func watch(until deadline: C.Instant, expire: @escaping @Sendable () -> Void) -> Entry {
        let entry = Entry(deadline: deadline)
        lock.withLock {
            expiries[ObjectIdentifier(entry)] = expire
            var index = entries.count
            while index > head, entries[index - 1].deadline > deadline {
                index -= 1
            }
            entries.insert(entry, at: index)
            if let wake, wake <= deadline {
                return  // the running timer wakes in time
            }
            wake = deadline
            generation += 1
            let current = generation
            timer?.cancel()
            timer = Task.detached { [self] in await run(from: deadline, generation: current) }
        }
        return entry
    }

    /// Stops watching `entry`: its `expire` will not run.
    func remove(_ entry: Entry) {
        lock.withLock {
            expiries[ObjectIdentifier(entry)] = nil
            dropRemovedAtFront()
        }
    }

    /// Cancels the timer; a later ``watch(until:expire:)`` starts another.
    func stop() {
        let stopped: Task<Void, Never>? = lock.withLock {
            // The running timer finds another generation current and ends.
            generation += 1
            wake = nil
            defer { timer = nil }
            return timer
        }
        stopped?.cancel()
    }

    /// The timer: sleeps until `deadline`, expires what is due, and goes on until nothing is left
    /// or a newer timer takes over.
    private func run(from deadline: C.Instant, generation current: Int) async {
        var deadline = deadline
        while true {
            try? await clock.sleep(until: deadline, tolerance: nil)
            let due: [@Sendable () -> Void]
            let next: C.Instant?
            (due, next) = lock.withLock {
                guard generation == current else { return ([], nil) }
                let now = clock.now
                var due: [@Sendable () -> Void] = []
                while head < entries.count, entries[head].deadline <= now {
                    if let expire = expiries.removeValue(forKey: ObjectIdentifier(entries[head])) {
                        due.append(expire)
                    }
                    head += 1
                }
                dropRemovedAtFront()
                let next = head < entries.count ? entries[head].deadline : nil
                wake = next
                if next == nil {
                    timer = nil
                }
                return (due, next)
            }
            for expire in due {
                expire()
            }
            guard let next else { return }
            deadline = next
        }
    }

    /// Drops the removed entries at the front, and the space of gone ones once it is half the
    /// list. Called with the lock held.
    private func dropRemovedAtFront() {
        while head < entries.count, expiries[ObjectIdentifier(entries[head])] == nil {
            head += 1
        }
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 32, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
