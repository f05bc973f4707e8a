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
    public init(
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

/// What ``Composer/metrics(to:redaction:clock:)`` reports: a start, then the end's measurements.
public enum MetricsEvent: Sendable, Hashable {
    /// A request is about to be passed on; the URL is redacted.
    case started(method: String, url: String, requestID: UUID?, requestNumber: Int?)
    /// A request ended, with a response or an error.
    case finished(RequestMetrics)
}

extension Composer {
    /// Reports each request's start and its end (duration, status, bytes, error) to `sink`.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with: .numbered(), .metrics(to: { event in
    ///     if case .finished(let metrics) = event {
    ///         statsd.timing("http.request", metrics.duration)
    ///     }
    /// }))
    /// ```
    ///
    /// Like ``logged(to:level:redaction:clock:)``, it measures what it sees: above
    /// ``retry(_:clock:)`` one request per call, below it one per attempt.
    ///
    /// - Parameters:
    ///   - sink: Receives each event, on the task making the request.
    ///   - redaction: What to hide in URLs and errors; ``Redaction/default`` by default.
    ///   - clock: Measures durations; `ContinuousClock()` by default.
    public static func metrics(
        to sink: @escaping @Sendable (MetricsEvent) -> Void,
        redaction: Redaction = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer { next in
            { request in
                let context = RequestContext.current
                let method = request.httpMethod ?? "GET"
                let url = request.url.map(redaction.redact) ?? "(no URL)"
                sink(.started(method: method, url: url, requestID: context?.id, requestNumber: context?.number))
                var metrics = RequestMetrics(
                    method: method, url: url, requestID: context?.id, requestNumber: context?.number, duration: .zero
                )
                let start = clock.now
                do {
                    let (data, response) = try await next(request)
                    metrics.duration = start.duration(to: clock.now)
                    metrics.status = (response as? HTTPURLResponse)?.statusCode
                    metrics.bytes = data.count
                    sink(.finished(metrics))
                    return (data, response)
                } catch {
                    metrics.duration = start.duration(to: clock.now)
                    metrics.status = (error as? HTTPStatusError)?.status
                    metrics.error = redaction.describe(error, for: request)
                    metrics.wasCancelled = LogFormat.isCancellation(error)
                    sink(.finished(metrics))
                    throw error
                }
            }
        }
    }

    /// Records each request in `recorder`, which keeps a running ``MetricsSummary``.
    ///
    /// ```swift
    /// let recorder = MetricsRecorder()
    /// let transport = URLSession.shared.transport(with: .numbered(), .metrics(into: recorder))
    /// // … later
    /// print(recorder.summary)
    /// // | requests | failures | in flight |    p50 |    p90 |    p99 |  bytes |
    /// // |      120 |        2 |         1 |  48 ms | 130 ms | 410 ms | 524288 |
    /// ```
    ///
    /// - Parameters:
    ///   - recorder: Keeps the summary; share one between stacks to sum them.
    ///   - redaction: What to hide in URLs and errors; ``Redaction/default`` by default.
    ///   - clock: Measures durations; `ContinuousClock()` by default.
    public static func metrics(
        into recorder: MetricsRecorder,
        redaction: Redaction = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        metrics(to: { event in recorder.receive(event) }, redaction: redaction, clock: clock)
    }
}
