#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The delegate queue of a package session on swift-corelibs-foundation: it runs each delegate
/// callback at once, on the thread that hands it over.
///
/// swift-corelibs-foundation hands every delegate callback (the response, each chunk of the
/// body, the completion, a redirect, a challenge) to the delegate queue as a block, from the
/// session's own serial work queue. An `OperationQueue` would wrap each block in a
/// `BlockOperation` and run it on another thread: three operations and three thread switches
/// per request before its task resumes. Run here, the callbacks stay in the order the session
/// makes them and never overlap, as on a serial queue; URLSession's own `data(for:)` completes
/// its requests on that same work queue.
///
/// A callback run here must not wait for that work queue: on Linux `URLSessionTask.cancel()`,
/// `suspend()` and `resume()` do, which is why ``SessionDelegate`` cancels tasks from its
/// cancel queue and answers challenges from there too. The futures the callbacks complete are
/// completed from a global queue, so that their observers never run here; the thread is
/// marked (``SessionCallbackThread``) so that the package knows where it is.
///
/// It adds no state: its `@unchecked Sendable` is `OperationQueue`'s own, restated as the
/// compiler requires of a subclass (the operation queue guards its state with its own lock).
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        SessionCallbackThread.running(block)
    }
}
#endif
