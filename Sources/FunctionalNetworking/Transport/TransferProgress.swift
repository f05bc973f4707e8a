import Foundation

/// How far a request's transfer has come: bytes of the body sent and of the response body
/// received, with the totals when they are known.
///
/// Watch it with ``withTransferProgress(_:onProgress:)``. Within one watched call, each count only
/// grows: when a retry or a redirect sends the request again, the counts hold where they were
/// until the new attempt passes them. A finished transfer reports its total received.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes of the request body sent so far.
    public var bytesSent: Int
    /// The request body's size, when it is known (a streamed body's may not be).
    public var totalBytesToSend: Int?
    /// Bytes of the response body received so far (decoded, as they are kept or written).
    public var bytesReceived: Int
    /// The response body's size, when the response declares it (`Content-Length`, no content
    /// coding).
    public var totalBytesToReceive: Int?

    /// A progress value.
    public init(bytesSent: Int = 0, totalBytesToSend: Int? = nil, bytesReceived: Int = 0, totalBytesToReceive: Int? = nil) {
        self.bytesSent = bytesSent
        self.totalBytesToSend = totalBytesToSend
        self.bytesReceived = bytesReceived
        self.totalBytesToReceive = totalBytesToReceive
    }

    /// The share of the response received, `0...1`, when its total is known.
    public var fractionReceived: Double? {
        guard let total = totalBytesToReceive, total > 0 else { return totalBytesToReceive == 0 ? 1 : nil }
        return min(1, Double(bytesReceived) / Double(total))
    }

    /// The share of the request body sent, `0...1`, when its total is known.
    public var fractionSent: Double? {
        guard let total = totalBytesToSend, total > 0 else { return totalBytesToSend == 0 ? 1 : nil }
        return min(1, Double(bytesSent) / Double(total))
    }
}

/// Runs `operation` and reports the progress of every request it sends through a transport
/// of the package (a ``NetworkSession``'s transport and any stack built on it) to `observer`.
///
/// ```swift
/// let response = try await withTransferProgress {
///     try await download(report, to: destination, through: transport)
/// } onProgress: { progress in
///     print(progress.bytesReceived, "of", progress.totalBytesToReceive ?? -1)
/// }
/// ```
///
/// The observer is called on the transport's own queue (on Linux, the thread that reads the
/// connection), in order, as bytes move: keep it short, as the transfer waits for it, and hop
/// to your actor from it to update a screen. It is a callback rather than an `AsyncSequence` so that
/// nothing is buffered and nothing runs when nobody watches: a request sent outside
/// `withTransferProgress` reads one task-local value and reports nothing.
///
/// - Parameters:
///   - operation: The work whose requests are watched.
///   - observer: Called with each new progress value.
/// - Returns: What `operation` returns.
public func withTransferProgress<Value: Sendable>(
    _ operation: () async throws -> Value,
    onProgress observer: @escaping @Sendable (TransferProgress) -> Void
) async rethrows -> Value {
    var context = RequestContext.current
    context.progress = ProgressReporter(observer)
    return try await RequestContext.$current.withValue(context) {
        try await operation()
    }
}
