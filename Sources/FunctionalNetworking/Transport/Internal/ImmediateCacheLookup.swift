#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The URL cache of a package session on swift-corelibs-foundation: the session's own cache,
/// looked up at once instead of on a background queue.
///
/// swift-corelibs-foundation creates a data task's protocol only once its cache has answered,
/// and asks the cache on a global background queue. A `cancel()` that arrives before that
/// answer is held in a list and run after it, from that background thread, one callback after
/// the other: between the callback that starts the transfer and the one that cancels it, a
/// fast transfer (a loopback server, an answer from the cache) can complete and leave the
/// session's task registry, and the late cancellation then ends the process
/// (`Trying to access a behaviour for a task that in not in the registry`). Answered at once,
/// on the thread that resumes the task, the protocol exists before `resume()` returns, so a
/// cancellation is handled in order on the session's work queue like any other.
///
/// Everything else is the wrapped cache's: what is stored, its capacities, its files. Its
/// `@unchecked Sendable` is `URLCache`'s own, restated as the compiler requires of a subclass;
/// it adds one constant.
final class ImmediateCacheLookup: URLCache, @unchecked Sendable {
    /// The cache the session was configured with.
    let base: URLCache

    init(_ base: URLCache) {
        self.base = base
        // No capacity and an existing directory: the superclass's own storage is never used.
        super.init(memoryCapacity: 0, diskCapacity: 0, diskPath: NSTemporaryDirectory())
    }

    override func getCachedResponse(
        for dataTask: URLSessionDataTask, completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        completionHandler(dataTask.currentRequest.flatMap { base.cachedResponse(for: $0) })
    }

    override func cachedResponse(for request: URLRequest) -> CachedURLResponse? {
        base.cachedResponse(for: request)
    }

    override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest) {
        base.storeCachedResponse(cachedResponse, for: request)
    }

    override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for dataTask: URLSessionDataTask) {
        base.storeCachedResponse(cachedResponse, for: dataTask)
    }

    override func removeCachedResponse(for request: URLRequest) {
        base.removeCachedResponse(for: request)
    }

    override func removeCachedResponse(for dataTask: URLSessionDataTask) {
        base.removeCachedResponse(for: dataTask)
    }

    override func removeAllCachedResponses() {
        base.removeAllCachedResponses()
    }

    override func removeCachedResponses(since date: Date) {
        base.removeCachedResponses(since: date)
    }

    override var memoryCapacity: Int {
        get { base.memoryCapacity }
        set { base.memoryCapacity = newValue }
    }

    override var diskCapacity: Int {
        get { base.diskCapacity }
        set { base.diskCapacity = newValue }
    }

    override var currentMemoryUsage: Int { base.currentMemoryUsage }

    override var currentDiskUsage: Int { base.currentDiskUsage }
}
#endif
