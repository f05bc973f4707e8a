#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
import CFutex
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
/// The mutual-exclusion lock that guards a future's state: a spin lock that sleeps on a futex
/// when it has spun for long enough.
///
/// `state` is one `Atomic<UInt32>` stored inline in the future: 0 free, 1 held, 2 held and a
/// thread may be asleep waiting for it. A taker compare-exchanges 0 for 1 (acquiring); a
/// contended taker retries 64 times, then exchanges in 2 and, unless that exchange found the
/// lock free, sleeps until an unlock wakes it. An unlock exchanges in 0 (releasing) and, when
/// it took out a 2, wakes one sleeper. Every hand-over goes through an atomic operation in user
/// space, which ThreadSanitizer sees.
///
/// Sleepers do not sleep on `state`, because Swift documents no way to take the address of a
/// stored `Atomic` (a borrow may be of a temporary), and a futex must name the same address in
/// the sleeper and the waker. They sleep on `parking`: a word of its own, allocated by the
/// first thread that has to sleep on this lock, so its address is that of an allocation,
/// stable by construction. It counts wake-ups: a sleeper reads it before it exchanges in 2
/// and sleeps only while it still holds that count, so a wake-up between the two is not lost.
/// A lock nobody has slept on never allocates.
///
/// Chosen by measurement (Benchmarks/README.md, section 13): the spin-then-yield lock it
/// replaces was faster but starved threads under contention (a thread waited up to the whole
/// run); this lock did not starve, was faster than `pthread_mutex` under contention and
/// uncontended, and needs no allocation per future. `Synchronization.Mutex` was far slower
/// under contention and ThreadSanitizer reports races through it on Linux. Like the lock it
/// replaces, it has no priority inheritance; every critical section it guards is a few field
/// reads and writes.
@usableFromInline
struct Lock: ~Copyable {
    /// 0 free, 1 held, 2 held and a thread may be asleep in ``lockContended()``.
    @usableFromInline let state: Atomic<UInt32>

    /// The word sleepers sleep on, counting wake-ups; `nil` until a thread first has to sleep.
    @usableFromInline let parking: Atomic<UnsafeMutablePointer<Atomic<UInt32>>?>

    @inlinable init() {
        state = Atomic(0)
        parking = Atomic(nil)
    }

    deinit {
        // Nobody else holds the lock any more: the owner's release ordered every access before.
        if let word = parking.load(ordering: .relaxed) {
            word.deinitialize(count: 1)
            word.deallocate()
        }
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
        for _ in 0..<64 {
            if state.load(ordering: .relaxed) == 0,
                state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
        }
        let word = parkingWord()
        while true {
            let wakeUps = word.pointee.load(ordering: .acquiring)
            // From here on the lock says "maybe with sleepers", so that the unlock that frees
            // it wakes one of us; taking it with a 2 in place only costs that unlock a wake-up.
            if state.exchange(2, ordering: .acquiringAndReleasing) == 0 {
                return
            }
            // Returns at once if an unlock counted a wake-up since `wakeUps` was read.
            cfutex_wait(Self.futexAddress(word), wakeUps)
        }
    }

    @inlinable
    func unlock() {
        if state.exchange(0, ordering: .releasing) == 2 {
            wakeOne()
        }
    }

    @usableFromInline
    func wakeOne() {
        // The 2 was stored after the parking word was published: see that publication.
        atomicMemoryFence(ordering: .acquiring)
        guard let word = parking.load(ordering: .acquiring) else { return }
        word.pointee.wrappingAdd(1, ordering: .releasing)
        cfutex_wake_one(Self.futexAddress(word))
    }

    /// The parking word, allocated and published by the first thread that needs it (a thread
    /// that loses the race to publish frees its own and takes the winner's).
    @usableFromInline
    func parkingWord() -> UnsafeMutablePointer<Atomic<UInt32>> {
        if let word = parking.load(ordering: .acquiring) {
            return word
        }
        let fresh = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: 1)
        fresh.initialize(to: Atomic(0))
        let (exchanged, original) = parking.compareExchange(
            expected: nil,
            desired: fresh,
            ordering: .acquiringAndReleasing
        )
        if !exchanged, let original {
            fresh.deinitialize(count: 1)
            fresh.deallocate()
            return original
        }
        return fresh
    }

    /// The parking word's address as the 32-bit word the kernel reads (an `Atomic<UInt32>` is
    /// laid out as one; `LockTests` checks its size and alignment).
    @usableFromInline
    static func futexAddress(_ word: UnsafeMutablePointer<Atomic<UInt32>>) -> UnsafeMutablePointer<UInt32> {
        UnsafeMutablePointer(OpaquePointer(word))
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
