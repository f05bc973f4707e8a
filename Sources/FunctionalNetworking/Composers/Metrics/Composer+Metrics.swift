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
        Composer(at: .metrics) { next in
            { request in
                let context = RequestContext.current
                let method = request.httpMethod ?? "GET"
                let url = request.url.map(redaction.redact) ?? "(no URL)"
                sink(.started(method: method, url: url, requestID: context.id, requestNumber: context.number))
                var metrics = RequestMetrics(
                    method: method, url: url, requestID: context.id, requestNumber: context.number, duration: .zero
                )
                let start = clock.now
                do {
                    let (data, response) = try await next(request)
                    metrics.status = (response as? HTTPURLResponse)?.statusCode
                    if let stream = context.stream?.channel(for: response) {
                        // A streamed body: the call ends when its stream does.
                        let streamed = metrics
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
                        return (data, response)
                    }
                    metrics.duration = start.duration(to: clock.now)
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
        Composer(at: .metrics) { next in
            { request in
                recorder.begin()
                let start = clock.now
                do {
                    let (data, response) = try await next(request)
                    let status = (response as? HTTPURLResponse)?.statusCode
                    if let stream = RequestContext.current.stream?.channel(for: response) {
                        // A streamed body: the call ends when its stream does.
                        stream.whenEnded { bytes, error in
                            let failed = (status ?? 0) >= 500 || error.map { !LogFormat.isCancellation($0) } ?? false
                            recorder.end(duration: start.duration(to: clock.now), failed: failed, bytes: bytes)
                        }
                        return (data, response)
                    }
                    recorder.end(duration: start.duration(to: clock.now), failed: (status ?? 0) >= 500, bytes: data.count)
                    return (data, response)
                } catch {
                    let status = (error as? HTTPStatusError)?.status
                    let failed = !LogFormat.isCancellation(error) || (status ?? 0) >= 500
                    recorder.end(duration: start.duration(to: clock.now), failed: failed, bytes: 0)
                    throw error
                }
            }
        }
    }
}
