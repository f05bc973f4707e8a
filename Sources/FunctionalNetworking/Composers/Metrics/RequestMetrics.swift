import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The measurements of one finished request, from ``Composer/metrics(to:redaction:clock:)``.
///
/// ```swift
/// metrics.duration   // .milliseconds(84)
/// metrics.status     // 200
/// metrics.bytes      // 512
/// ```
public struct RequestMetrics: Sendable, Hashable {
    /// The request's method, such as `GET`.
    public var method: String
    /// The request's URL, redacted.
    public var url: String
    /// The request's id, from ``RequestContext/current`` when `.numbered()` is above.
    public var requestID: UUID?
    /// The request's sequence number, from ``RequestContext/current``.
    public var requestNumber: Int?
    /// The response's status; for a failure, the status of an ``HTTPStatusError``.
    public var status: Int?
    /// The time from start to end on the composer's clock.
    public var duration: Duration
    /// The number of body bytes received (0 when the request failed).
    public var bytes: Int
    /// What went wrong, redacted; `nil` when a response came back.
    public var error: String?
    /// Whether the request was cancelled (`CancellationError` or `URLError.cancelled`).
    public var wasCancelled: Bool

    /// Creates the measurements of one request.
    init(
        method: String, url: String, requestID: UUID? = nil, requestNumber: Int? = nil, status: Int? = nil,
        duration: Duration, bytes: Int = 0, error: String? = nil, wasCancelled: Bool = false
    ) {
        self.method = method
        self.url = url
        self.requestID = requestID
        self.requestNumber = requestNumber
        self.status = status
        self.duration = duration
        self.bytes = bytes
        self.error = error
        self.wasCancelled = wasCancelled
    }

    /// Whether the request failed: it threw an error other than cancellation, or the response's
    /// status is 500 or above.
    public var isFailure: Bool {
        (error != nil && !wasCancelled) || (status ?? 0) >= 500
    }
}
