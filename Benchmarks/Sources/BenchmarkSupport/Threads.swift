import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A mutex and condition variable at stable addresses, for the hand-off helpers.
@usableFromInline
final class Monitor: @unchecked Sendable {
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    @usableFromInline let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    @usableFromInline init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    @inlinable func lock() { pthread_mutex_lock(mutex) }
    @inlinable func unlock() { pthread_mutex_unlock(mutex) }
    @inlinable func wait() { pthread_cond_wait(condition, mutex) }
    @inlinable func signal() { pthread_cond_signal(condition) }
}

/// Starts a detached thread running `body`.
@discardableResult
public func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    precondition(status == 0, "pthread_create failed with \(status)")
    pthread_detach(thread)
    return thread
}

/// A dedicated thread that receives objects over a queue and runs `handler` on each — the
/// "elsewhere" of benchmark 6, shared by our futures and the plain-closure floor so that both
/// pay for exactly the same mechanism.
///
/// `send` appends under a pthread mutex and signals the thread only when it sleeps; the
/// thread takes everything queued in one go. In the steady state it allocates nothing: the
/// two buffers it swaps keep their capacity.
public final class Handoff<Item: AnyObject & Sendable>: @unchecked Sendable {
    @usableFromInline let monitor = Monitor()
    @usableFromInline var queue: [Item] = []
    @usableFromInline var sleeping = false
    let handler: @Sendable (Item) -> Void

    public init(handler: @escaping @Sendable (Item) -> Void) {
        self.handler = handler
        queue.reserveCapacity(4_096)
        startThread { [self] in run() }
    }

    /// Queues `item` for the handler thread.
    @inlinable public func send(_ item: Item) {
        monitor.lock()
        queue.append(item)
        let wake = sleeping
        monitor.unlock()
        if wake {
            monitor.signal()
        }
    }

    private func run() {
        var batch: [Item] = []
        batch.reserveCapacity(4_096)
        while true {
            monitor.lock()
            while queue.isEmpty {
                sleeping = true
                monitor.wait()
                sleeping = false
            }
            swap(&queue, &batch)
            monitor.unlock()
            for item in batch {
                handler(item)
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

/// Counts completions; the benchmark thread spins (yielding) until a batch is done.
public final class Counter: Sendable {
    public let value = Atomic<Int>(0)

    public init() {}

    @inlinable public func increment() {
        value.add(1, ordering: .releasing)
    }

    @inlinable public var current: Int {
        value.load(ordering: .acquiring)
    }

    /// Waits until the count reaches `target`.
    @inlinable public func wait(until target: Int) {
        while value.load(ordering: .acquiring) < target {
            sched_yield()
        }
    }
}
