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
