import Foundation

/// Runs CPU-heavy synchronous work on a thread of its own with a small (1 MiB) stack, one
/// heavy test at a time.
///
/// Swift Testing runs tests on the few threads of the cooperative pool; a test that computes
/// for seconds there starves the async tests beside it, and several at once starve the
/// network tests of CPU. A dedicated thread keeps the pool free, the ``HeavyWork`` gate keeps
/// heavy tests from piling up, and the small stack makes "does not overflow the stack" a real
/// claim.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await HeavyWork.gate.run {
        await startThread(body)
    }
}

/// Starts `body` on a new thread and waits for its result (no gate: for work that must run
/// alongside other threads inside one heavy test).
func startThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Lets one heavy test run at a time.
actor HeavyWork {
    static let gate = HeavyWork()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        let result = await body()
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
        return result
    }
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes (512 KiB unless told), one heavy
/// test at a time, and waits for it at most `timeout`: `nil` when it has not returned by then.
///
/// The wait is a semaphore's with a deadline, on a Dispatch thread rather than the test's own,
/// so that a body that hangs fails the test instead of hanging the run (its thread is left
/// behind).
func onSmallStack<T: Sendable>(
    stackSize: Int = 512 * 1024,
    timeout: DispatchTimeInterval = .seconds(120),
    _ body: @escaping @Sendable () -> T
) async -> T? {
    await HeavyWork.gate.run {
        await withCheckedContinuation { continuation in
            let outcome = Slot<T>()
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                outcome.value = body()
                finished.signal()
            }
            thread.stackSize = stackSize
            thread.start()
            DispatchQueue.global().async {
                let inTime = finished.wait(timeout: .now() + timeout) == .success
                continuation.resume(returning: inTime ? outcome.value : nil)
            }
        }
    }
}
