import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the 2xx body of one streamed call goes: set in ``RequestContext`` by
/// ``stream(_:through:limits:)``, filled by the session's delegate with a ``StreamChannel``
/// for each response it streams.
///
/// A stack may send more than one attempt; the channel of the response the stack returns is the
/// caller's, and any other is cancelled.
final class StreamTarget: @unchecked Sendable {
    /// The stream's limits.
    let limits: StreamLimits
    private let lock = NSLock()
    private var current: (channel: StreamChannel, response: URLResponse)?

    init(limits: StreamLimits) {
        self.limits = limits
    }

    /// Makes `channel` the one that streams `response`'s body; an earlier one is cancelled.
    func attach(_ channel: StreamChannel, for response: URLResponse) {
        let earlier = lock.withLock {
            defer { current = (channel, response) }
            return current?.channel
        }
        earlier?.cancel()
    }

    /// The channel streaming `response`'s body, if the session is streaming it.
    func channel(for response: URLResponse) -> StreamChannel? {
        lock.withLock { current.flatMap { $0.response === response ? $0.channel : nil } }
    }

    /// The channel the caller reads, given the answer the stack returned: the one streaming
    /// `response`, or, when a composer of the stack handed up another response object with no
    /// body of its own, the one the session streamed last.
    func channel(forAnswer response: URLResponse, data: Data) -> StreamChannel? {
        lock.withLock {
            guard let current else { return nil }
            return current.response === response || data.isEmpty ? current.channel : nil
        }
    }

    /// Cancels the channel attached, if any: the call failed, so nobody will read it.
    func cancel() {
        let channel = lock.withLock {
            defer { current = nil }
            return current?.channel
        }
        channel?.cancel()
    }
}
