#if os(Linux)
import Foundation
import FutexShim
import Glibc
import Synchronization

/// A lock the contention runs can take: created in place, taken and released by borrowing.
protocol ContentionLock: ~Copyable {
    /// The name shown in the tables.
    static var name: String { get }
    init()
    func lock()
    func unlock()
}

/// (a) The future's lock on Linux today, copied from Sources/Futures/Internal/Lock.swift: one
/// inline `Atomic<UInt32>`, an acquiring compare-exchange, a contended taker spins 64 times,
/// then calls `sched_yield` on every further attempt.
struct SpinYieldLock: ContentionLock, ~Copyable {
    static var name: String { "spin-yield (today)" }
    let state: Atomic<UInt32>

    init() { state = Atomic(0) }

    @inline(__always)
    func lock() {
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            return
        }
        lockContended()
    }

    @inline(never)
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

    @inline(__always)
    func unlock() { state.store(0, ordering: .releasing) }
}

/// (b) A default `pthread_mutex_t` in an allocation of its own, as the usual Swift wrapper.
struct PthreadLock: ContentionLock, ~Copyable {
    static var name: String { "pthread_mutex" }
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

/// (b') The same with glibc's adaptive type, which spins a little before it sleeps.
struct AdaptivePthreadLock: ContentionLock, ~Copyable {
    static var name: String { "pthread_mutex adaptive" }
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

/// (c) `Synchronization.Mutex<Void>` inline: on Linux a priority-inheriting futex
/// (`FUTEX_LOCK_PI`) holding the owner's thread id.
struct StandardMutex: ContentionLock, ~Copyable {
    static var name: String { "Synchronization.Mutex" }
    let mutex: Mutex<Void>

    init() { mutex = Mutex(()) }

    @inline(__always) func lock() { mutex._unsafeLock() }
    @inline(__always) func unlock() { mutex._unsafeUnlock() }
}

/// (d) Foundation's `NSLock` (a pthread mutex inside an object).
struct FoundationLock: ContentionLock, ~Copyable {
    static var name: String { "NSLock" }
    let base: NSLock

    init() { base = NSLock() }

    @inline(__always) func lock() { base.lock() }
    @inline(__always) func unlock() { base.unlock() }
}

/// (e) The spin lock of (a) that parks on a futex instead of yielding: inline
/// `Atomic<UInt32>`, 0 free, 1 held, 2 held with sleepers (Drepper, "Futexes Are Tricky",
/// mutex 3). A contended taker spins as (a) does, then marks the word 2 and sleeps in
/// `FUTEX_WAIT_PRIVATE` until the word changes; an unlock that finds 2 wakes one sleeper. Every
/// hand-over goes through an atomic exchange in user space, which ThreadSanitizer sees. The
/// futex calls take the word's address from a borrow of the stored `Atomic`, which is never
/// moved while borrowed: its place in the object.
struct SpinFutexLock: ContentionLock, ~Copyable {
    static var name: String { "spin-futex" }
    let state: Atomic<UInt32>

    init() { state = Atomic(0) }

    @inline(__always)
    func lock() {
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            return
        }
        lockContended()
    }

    @inline(never)
    func lockContended() {
        for _ in 0..<64 {
            if state.load(ordering: .relaxed) == 0,
                state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
        }
        // From here on the word says "held, maybe with sleepers", so that the unlock that
        // frees it wakes one of us.
        while state.exchange(2, ordering: .acquiring) != 0 {
            withUnsafePointer(to: state) { word in
                _ = futex_shim_wait(UnsafeRawPointer(word), 2)
            }
        }
    }

    @inline(__always)
    func unlock() {
        if state.exchange(0, ordering: .releasing) == 2 {
            wake()
        }
    }

    @inline(never)
    func wake() {
        withUnsafePointer(to: state) { word in
            _ = futex_shim_wake(UnsafeRawPointer(word), 1)
        }
    }
}

/// No lock at all: the cost of the critical section and the loop alone.
struct NoLock: ContentionLock, ~Copyable {
    static var name: String { "no lock (floor)" }
    init() {}
    @inline(__always) func lock() {}
    @inline(__always) func unlock() {}
}
#endif
