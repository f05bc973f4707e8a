import Dispatch
import Foundation
import Testing

@testable import Futures

#if !canImport(Darwin)
import Synchronization
#endif

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

/// ``Lock`` taken by many threads at once: it excludes, it wakes the threads it put to sleep,
/// and it lets every thread through.
extension LockTests {
    @Suite("Under contention")
    struct Contention {
        /// State guarded by one ``Lock``, as a future's state is.
        final class Guarded: @unchecked Sendable {
            let lock = Lock()
            var count = 0
            var perThread: [Int]
            var stop = false
            var released = false
            var sawRelease = false
            var waitedMilliseconds = 0

            init(threads: Int = 0) {
                perThread = Array(repeating: 0, count: threads)
            }
        }

        /// Sixteen threads, or four under a sanitizer (`.ci/run` sets `FUNCTIONAL_NETWORKING_SANITIZER`),
        /// where sixteen spinning threads held both cores for over a minute and starved the rest of
        /// the suite past its time limits.
        static let threads = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_SANITIZER"] == nil ? 16 : 4

        @Test func threadsIncrementingAPlainCounterEndWithTheExactSum() async {
            let guarded = Guarded()
            let finished = await HeavyWork.gate.run {
                await onThreads(Self.threads, timeout: .seconds(120)) { _ in
                    for _ in 0..<20_000 {
                        guarded.lock.lock()
                        guarded.count += 1
                        guarded.lock.unlock()
                    }
                }
            }
            #expect(finished)
            #expect(guarded.lock.withLock { guarded.count } == Self.threads * 20_000)
        }

        @Test func aThreadThatBlocksOnAHeldLockIsWokenWhenItIsReleased() async {
            let guarded = Guarded()
            let held = DispatchSemaphore(value: 0)
            let finished = await onThreads(2, timeout: .seconds(10)) { index in
                if index == 0 {
                    guarded.lock.lock()
                    held.signal()
                    usleep(50_000)
                    guarded.released = true
                    guarded.lock.unlock()
                } else {
                    _ = held.wait(timeout: .now() + .seconds(5))
                    let start = DispatchTime.now()
                    guarded.lock.lock()
                    let waited = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
                    guarded.sawRelease = guarded.released
                    guarded.waitedMilliseconds = Int(waited / 1_000_000)
                    guarded.lock.unlock()
                }
            }
            #expect(finished)
            guarded.lock.withLock {
                #expect(guarded.sawRelease, "the blocked thread got the lock before the holder released it")
                #expect(guarded.waitedMilliseconds >= 30, "it did not block: \(guarded.waitedMilliseconds) ms")
            }
            #if !canImport(Darwin)
            // It slept on the futex (64 spins take microseconds): the parking word exists.
            #expect(guarded.lock.parking.load(ordering: .acquiring) != nil)
            #endif
        }

        @Test func everyThreadAcquiresTheLockWhileAllContendForIt() async {
            let threads = Self.threads
            let guarded = Guarded(threads: threads)
            let finished = await HeavyWork.gate.run {
                await onThreads(threads + 1, timeout: .seconds(60)) { index in
                    if index == threads {
                        // The referee: ends the run once every thread has had the lock, or after
                        // ten seconds (a starving lock keeps a thread out for the whole run; a
                        // loaded machine may not schedule one for the first few hundred ms).
                        let start = DispatchTime.now()
                        while true {
                            usleep(10_000)
                            let elapsed = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
                            let done = guarded.lock.withLock { () -> Bool in
                                guard guarded.perThread.allSatisfy({ $0 > 0 }) || elapsed > 10_000_000_000 else { return false }
                                guarded.stop = true
                                return true
                            }
                            if done { return }
                        }
                    }
                    while true {
                        guarded.lock.lock()
                        if guarded.stop {
                            guarded.lock.unlock()
                            return
                        }
                        guarded.count += 1
                        guarded.perThread[index] += 1
                        guarded.lock.unlock()
                    }
                }
            }
            #expect(finished)
            guarded.lock.withLock {
                #expect(guarded.perThread.reduce(0, +) == guarded.count)
                #expect(guarded.perThread.allSatisfy { $0 > 0 }, "a thread starved for ten seconds: \(guarded.perThread)")
            }
        }

        #if !canImport(Darwin)
        @Test func theParkingWordIsLaidOutAsThe32BitWordTheKernelReads() {
            #expect(MemoryLayout<Atomic<UInt32>>.size == 4)
            #expect(MemoryLayout<Atomic<UInt32>>.alignment == 4)
        }

        @Test func aLockNobodySleptOnAllocatesNoParkingWord() {
            let lock = Lock()
            lock.withLock {}
            #expect(lock.parking.load(ordering: .acquiring) == nil)
        }
        #endif
    }
}

/// Runs `body(index)` for each index below `count` on threads of its own, and waits for all of
/// them at most `timeout` (the wait on yet another thread): `false` when they have not all
/// returned by then (their threads are left behind).
private func onThreads(
    _ count: Int,
    timeout: DispatchTimeInterval,
    _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
    await withCheckedContinuation { continuation in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }
            .start()
        }
        Thread {
            continuation.resume(returning: group.wait(timeout: .now() + timeout) == .success)
        }
        .start()
    }
}
