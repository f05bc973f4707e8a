#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A task executor on one dedicated thread, which also runs plain closures in the same FIFO.
///
/// Benchmark 5 runs its awaiting loop under `withTaskExecutorPreference(executor)`: every
/// nonisolated async function (`Future.value`, `EventLoopFuture.get()`, the continuation
/// functions) then runs on this one thread, with no hop to the global pool. A closure
/// submitted with ``submit(_:)`` before an `await` can only run once the awaiting task has
/// suspended, so "await a pending future, resolved from elsewhere" is deterministic: the
/// future is always still pending when it is awaited, and the resolution always comes from
/// another job.
public final class SerialTaskExecutor: TaskExecutor, @unchecked Sendable {
    @usableFromInline enum Item {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    @usableFromInline let monitor = Monitor()
    @usableFromInline var queue: [Item] = []
    @usableFromInline var sleeping = false

    public init() {
        queue.reserveCapacity(1_024)
        startThread { [self] in run() }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    /// Runs `body` on the executor's thread, after everything already queued.
    @inlinable public func submit(_ body: @escaping @Sendable () -> Void) {
        push(.closure(body))
    }

    @inlinable func push(_ item: Item) {
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
        batch.reserveCapacity(1_024)
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
                switch item {
                case .job(let job):
                    job.runSynchronously(on: asUnownedTaskExecutor())
                case .closure(let body):
                    body()
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

extension SerialTaskExecutor {
    /// One executor thread per process, started on first use.
    public static let shared = SerialTaskExecutor()
}
