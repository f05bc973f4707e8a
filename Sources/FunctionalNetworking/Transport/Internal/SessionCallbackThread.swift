import Foundation

/// Whether the current thread is running a session's delegate callback: the one fact a thread
/// keeps about itself, in a thread-specific value.
///
/// On swift-corelibs-foundation the package's callbacks run on the work queue that every
/// URLSession of the process shares (see ``InlineDelegateQueue``). Nothing may run there that
/// holds that queue up or waits for it (making, resuming or cancelling a URLSession task
/// does): so a future completed there is completed from a global queue instead (its observers
/// are the caller's code), a request started there is made on another queue
/// (``SessionDelegate/start(_:on:limit:context:)``), and an operation started there is not run
/// at once (`Future.startedImmediately`). On Apple platforms the callbacks run on the
/// package's own queue, which making a task never waits for, and nothing marks the thread.
enum SessionCallbackThread {
    /// The thread-specific key; its value is non-nil while a callback runs.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "The process has run out of thread-specific keys (pthread_key_create: \(status)).")
        return key
    }()

    /// Whether a callback runs on this thread now.
    static var isRunningCallback: Bool {
        pthread_getspecific(key) != nil
    }

    /// Runs `callback`, with the thread marked as running one.
    static func running(_ callback: () -> Void) {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, outer) }
        callback()
    }
}
