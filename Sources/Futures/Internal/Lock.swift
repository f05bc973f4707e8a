#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The mutual-exclusion lock that guards a future's state.
///
/// A pthread mutex on Linux (ThreadSanitizer understands it, which it does not for
/// `Synchronization.Mutex` there) and `os_unfair_lock` on Apple platforms. The lock word lives
/// in its own allocation so that its address is stable, as both primitives require.
@usableFromInline
struct Lock: ~Copyable {
    #if canImport(Darwin)
    @usableFromInline let word: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let word: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @inlinable init() {
        word = .allocate(capacity: 1)
        #if canImport(Darwin)
        word.initialize(to: os_unfair_lock())
        #else
        word.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(word, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(word)
        #endif
        word.deinitialize(count: 1)
        word.deallocate()
    }

    @inlinable
    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(word)
        #else
        pthread_mutex_lock(word)
        #endif
    }

    @inlinable
    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(word)
        #else
        pthread_mutex_unlock(word)
        #endif
    }

    /// Runs `body` with the lock held.
    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
