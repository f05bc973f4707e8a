import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Reports each request's start and its end (duration, status, bytes, error) to `sink`.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with: .numbered(), .metrics(to: { event in
    ///     if case .finished(let metrics) = event {
    ///         statsd.timing("http.request", metrics.duration)
    ///     }
    /// }))
    /// ```
    ///
    /// Its place is ``Place/metrics``, below logging: like ``logged(to:level:redaction:clock:)``
    /// it measures one request per call, as the caller sees it (placed below ``retry(_:clock:)``
    /// with `Composer(at: .custom, Composer.metrics(…).wrapping)`, one per attempt).
    ///
    /// A call made with ``stream(_:through:limits:)`` whose body streams is `.finished` when its
    /// stream ends, with the bytes it brought; a stream whose reader left is `wasCancelled`.
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
        Composer.watching(at: .metrics) { request, context in
            MeasuredCall(request: request, context: context, sink: sink, redaction: redaction, clock: clock)
        }
    }

    /// Records each request in `recorder`, which keeps a running ``MetricsSummary``.
    ///
    /// ```swift
    /// let recorder = MetricsRecorder()
    /// let transport = NetworkSession.shared.transport(with: .numbered(), .metrics(into: recorder))
    /// // … later
    /// print(recorder.summary)
    /// // | requests | failures | in flight |    p50 |    p90 |    p99 |  bytes |
    /// // |      120 |        2 |         1 |  48 ms | 130 ms | 410 ms | 524288 |
    /// ```
    ///
    /// The recorder keeps counts and durations only, so this composer reads neither the URL nor
    /// the error's description: nothing of a request is redacted, because nothing of it is kept.
    ///
    /// - Parameters:
    ///   - recorder: Keeps the summary; share one between stacks to sum them.
    ///   - redaction: Unused: the recorder keeps no URL and no error text. Kept so that a stack
    ///     can switch between ``metrics(to:redaction:clock:)`` and this one.
    ///   - clock: Measures durations; `ContinuousClock()` by default.
    public static func metrics(
        into recorder: MetricsRecorder,
        redaction: Redaction = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer.watching(at: .metrics) { _, context in
            RecordedCall(recorder: recorder, context: context, clock: clock)
        }
    }
}

/// One call measured for ``Composer/metrics(to:redaction:clock:)``: `.started` sent as it
/// starts, `.finished` with its duration, status, bytes and error as it ends (a streamed body's
/// when its stream ends).
private struct MeasuredCall<C: Clock<Duration>>: CallWatch {
    let request: URLRequest
    let context: RequestContext
    let sink: @Sendable (MetricsEvent) -> Void
    let redaction: Redaction
    let clock: C
    let metrics: RequestMetrics
    let start: C.Instant

    init(
        request: URLRequest, context: RequestContext, sink: @escaping @Sendable (MetricsEvent) -> Void, redaction: Redaction, clock: C
    ) {
        self.request = request
        self.context = context
        self.sink = sink
        self.redaction = redaction
        self.clock = clock
        let method = request.httpMethod ?? "GET"
        let url = request.url.map(redaction.redact) ?? "(no URL)"
        sink(.started(method: method, url: url, requestID: context.id, requestNumber: context.number))
        metrics = RequestMetrics(method: method, url: url, requestID: context.id, requestNumber: context.number, duration: .zero)
        start = clock.now
    }

    func ended(with result: Result<(Data, URLResponse), any Error>) {
        var metrics = metrics
        switch result {
        case .success(let (data, response)):
            metrics.status = (response as? HTTPURLResponse)?.statusCode
            if let stream = context.stream?.channel(for: response) {
                // A streamed body: the call ends when its stream does.
                let (request, sink, redaction, clock, start, streamed) = (request, sink, redaction, clock, start, metrics)
                stream.whenEnded { bytes, error in
                    var metrics = streamed
                    metrics.duration = start.duration(to: clock.now)
                    metrics.bytes = bytes
                    if let error {
                        metrics.error = redaction.describe(error, for: request)
                        metrics.wasCancelled = LogFormat.isCancellation(error)
                    }
                    sink(.finished(metrics))
                }
                return
            }
            metrics.duration = start.duration(to: clock.now)
            metrics.bytes = data.count
        case .failure(let error):
            metrics.duration = start.duration(to: clock.now)
            metrics.status = (error as? HTTPStatusError)?.status
            metrics.error = redaction.describe(error, for: request)
            metrics.wasCancelled = LogFormat.isCancellation(error)
        }
        sink(.finished(metrics))
    }
}

/// One call counted for ``Composer/metrics(into:redaction:clock:)``: begun in the recorder as it
/// starts, ended with its duration, bytes and whether it failed (a 5xx, or an error other than
/// a cancellation).
private struct RecordedCall<C: Clock<Duration>>: CallWatch {
    let recorder: MetricsRecorder
    let context: RequestContext
    let clock: C
    let start: C.Instant

    init(recorder: MetricsRecorder, context: RequestContext, clock: C) {
        self.recorder = recorder
        self.context = context
        self.clock = clock
        recorder.begin()
        start = clock.now
    }

    func ended(with result: Result<(Data, URLResponse), any Error>) {
        switch result {
        case .success(let (data, response)):
            let status = (response as? HTTPURLResponse)?.statusCode
            if let stream = context.stream?.channel(for: response) {
                // A streamed body: the call ends when its stream does.
                let (recorder, clock, start) = (recorder, clock, start)
                stream.whenEnded { bytes, error in
                    let failed = (status ?? 0) >= 500 || error.map { !LogFormat.isCancellation($0) } ?? false
                    recorder.end(duration: start.duration(to: clock.now), failed: failed, bytes: bytes)
                }
                return
            }
            recorder.end(duration: start.duration(to: clock.now), failed: (status ?? 0) >= 500, bytes: data.count)
        case .failure(let error):
            let status = (error as? HTTPStatusError)?.status
            let failed = !LogFormat.isCancellation(error) || (status ?? 0) >= 500
            recorder.end(duration: start.duration(to: clock.now), failed: failed, bytes: 0)
        }
    }
}
