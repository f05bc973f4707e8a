import Foundation

/// Runs CPU-heavy synchronous work on a thread of its own with a small (1 MiB) stack.
///
/// Swift Testing runs tests on the few threads of the cooperative pool; a test that computes
/// for seconds there starves the async tests beside it. A dedicated thread keeps the pool
/// free, and its small stack makes "does not overflow the stack" a real claim.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
