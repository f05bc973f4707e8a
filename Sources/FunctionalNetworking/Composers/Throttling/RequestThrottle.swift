import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Limits how many requests are in flight at once, overall and per host: the state behind
/// ``Composer/throttled(by:)``.
///
/// A request beyond a limit waits, without polling, until a request in flight finishes, fails
/// or is cancelled; waiting requests go first in, first out. A request waiting only because its
/// host is at its limit does not hold back requests to other hosts. A host is a host name and
/// port (`127.0.0.1:8080` and `127.0.0.1:8081` are different hosts).
///
/// Hold one to share a limit between transports, or to see how busy it is:
///
/// ```swift
/// let throttle = RequestThrottle(maxConcurrent: 8, perHost: 4)
/// let images = NetworkSession.shared.transport(with: .throttled(by: throttle))
/// let api = NetworkSession.shared.transport(with: .retry(), .throttled(by: throttle))
/// throttle.waitingCount   // requests queued now
/// ```
///
/// A waiting request that is cancelled leaves the queue at once and throws
/// `CancellationError`.
public final class RequestThrottle: Sendable {
    /// The most requests in flight at once, over all hosts.
    public let maxConcurrent: Int
    /// The most requests in flight at once to one host, or `nil` for no limit per host.
    public let maxPerHost: Int?

    private let queue: ThrottleQueue

    /// Creates a throttle.
    ///
    /// ```swift
    /// let throttle = RequestThrottle(maxConcurrent: 6)
    /// ```
    ///
    /// - Parameters:
    ///   - maxConcurrent: The most requests in flight at once; values below 1 count as 1.
    ///   - perHost: The most requests in flight at once to one host (host name and port), or
    ///     `nil` (the default) for no limit other than `maxConcurrent`. Values below 1 count
    ///     as 1.
    public init(maxConcurrent: Int, perHost: Int? = nil) {
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxPerHost = perHost.map { max(1, $0) }
        queue = ThrottleQueue(maxConcurrent: self.maxConcurrent, maxPerHost: self.maxPerHost)
    }

    /// The number of requests in flight through this throttle now.
    public var inFlightCount: Int {
        queue.inFlightCount
    }

    /// The number of requests waiting for a slot now.
    public var waitingCount: Int {
        queue.waitingCount
    }

    /// Sends `request` through `next` once the limits allow it, and frees its slot when it
    /// finishes, fails or is cancelled.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - next: The transport that sends it.
    /// - Returns: What `next` returns.
    /// - Throws: What `next` throws; `CancellationError` when the task is cancelled before
    ///   the request is sent.
    func send(_ request: URLRequest, through next: @escaping Transport) async throws -> (Data, URLResponse) {
        let host = host(of: request)
        try await queue.acquire(host)
        defer { queue.release(host) }
        // Cancelled just as the slot came free: do not start a request nobody waits for.
        try Task.checkCancellation()
        return try await next(request)
    }

    /// The direct form of ``send(_:through:)``: with a free slot, `next` starts at once, on this
    /// thread; otherwise the call waits in the same queue as awaiting callers, and `next` starts
    /// on the thread that frees its slot. Cancelling the returned future takes a waiting call
    /// out of the queue, or cancels the running one and frees its slot.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The call's context, passed on to `next`.
    ///   - next: The transport that sends it.
    /// - Returns: The future of what `next` gives.
    func send(
        _ request: URLRequest, context: RequestContext, through next: @escaping DirectTransport
    ) -> Future<(Data, URLResponse)> {
        let host = host(of: request)
        if queue.takeIfFree(host) {
            return running(next(request, context), holding: host)
        }
        let promise = Promise<(Data, URLResponse)>()
        let start: @Sendable () -> Void = { [self] in
            // Cancelled just as the slot came free: do not start a request nobody waits for.
            guard promise.isPending else {
                queue.release(host)
                return
            }
            follow(next(request, context), holding: host, into: promise)
        }
        guard let id = queue.enqueue(host, start: start) else {
            return running(next(request, context), holding: host)  // a slot came free meanwhile
        }
        promise.onCancel { [queue] in queue.withdraw(id) }
        return promise
    }

    /// The host a request counts against: one for all when there is no limit per host.
    private func host(of request: URLRequest) -> ThrottleHost {
        maxPerHost == nil ? ThrottleHost.anyHost : ThrottleHost(request.url)
    }

    /// `answer`, made while holding a slot for `host`: the slot is freed when it completes or
    /// is cancelled.
    private func running(_ answer: Future<(Data, URLResponse)>, holding host: ThrottleHost) -> Future<(Data, URLResponse)> {
        guard answer.isPending else {
            queue.release(host)  // answered at once
            return answer
        }
        let promise = Promise<(Data, URLResponse)>()
        follow(answer, holding: host, into: promise)
        return promise
    }

    /// Completes `promise` with `answer`'s result once the slot for `host` is freed; cancelling
    /// `promise` cancels `answer`, which so completes and frees the slot (once, either way).
    private func follow(
        _ answer: Future<(Data, URLResponse)>, holding host: ThrottleHost, into promise: Promise<(Data, URLResponse)>
    ) {
        answer.observe { [queue] result in
            queue.release(host)
            promise.complete(with: result)
        }
        promise.onCancel { answer.cancel() }
    }
}
