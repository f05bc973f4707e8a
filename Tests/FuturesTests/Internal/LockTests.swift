import Dispatch
import Testing

@testable import Futures

@Suite("Lock")
struct LockTests {
    /// State guarded by one ``Lock``.
    final class Guarded: @unchecked Sendable {
        let lock = Lock()
        var count = 0
    }

    @Test func withLockReturnsWhatItsBodyReturns() {
        let lock = Lock()
        #expect(lock.withLock { 42 } == 42)
    }

    @Test func withLockRethrowsAndReleasesTheLock() {
        let lock = Lock()
        #expect(throws: TestError.self) {
            try lock.withLock { () throws -> Int in throw TestError() }
        }
        #expect(lock.withLock { true })  // released: taking it again does not wait
    }

    @Test func threadsTakingTheLockNeverLoseAnUpdate() {
        let guarded = Guarded()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                guarded.lock.lock()
                guarded.count += 1
                guarded.lock.unlock()
            }
        }
        #expect(guarded.lock.withLock { guarded.count } == 80_000)
    }
}
