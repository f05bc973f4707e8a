#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
import Synchronization
#elseif canImport(Musl)
import Musl
import Synchronization
#elseif canImport(Android)
import Android
import Synchronization
#endif

#if canImport(Darwin)
/// The mutual-exclusion lock that guards a future's state: `os_unfair_lock`, in an allocation
/// of its own so that its address is stable, as the lock requires.
@usableFromInline
struct Lock: ~Copyable {
    @usableFromInline let word: UnsafeMutablePointer<os_unfair_lock>

    @inlinable init() {
        word = .allocate(capacity: 1)
        word.initialize(to: os_unfair_lock())
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    @inlinable func lock() { os_unfair_lock_lock(word) }

    @inlinable func unlock() { os_unfair_lock_unlock(word) }

    /// Runs `body` with the lock held.
    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
#else
/// The mutual-exclusion lock that guards a future's state: one `Atomic<UInt32>` stored inline
/// in the future, taken with an acquiring compare-exchange and released with a releasing
/// store; a contended taker spins briefly, then yields the processor.
///
/// Chosen by measurement (Benchmarks/README.md): against a heap-allocated pthread mutex it
/// saves an allocation per future, and it was faster in benchmarks 1, 2 and 5; ThreadSanitizer
/// understands its atomics, which it does not for `Synchronization.Mutex` on Linux. Every
/// critical section it guards is a few field reads and writes, so spinning is short.
@usableFromInline
struct Lock: ~Copyable {
    @usableFromInline let state: Atomic<UInt32>

    @inlinable init() {
        state = Atomic(0)
    }

    @inlinable
    func lock() {
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            return
        }
        lockContended()
    }

    @usableFromInline
    func lockContended() {
        var spins = 0
        while true {
            if state.load(ordering: .relaxed) == 0,
                state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins >= 64 {
                sched_yield()
            }
        }
    }

    @inlinable
    func unlock() {
        state.store(0, ordering: .releasing)
    }

    /// Runs `body` with the lock held.
    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
#endif
