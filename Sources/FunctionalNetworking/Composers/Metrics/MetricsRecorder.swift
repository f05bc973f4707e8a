import Foundation

/// Keeps a running summary of the requests a ``Composer/metrics(into:redaction:clock:)``
/// composer reports: how many, how many failed, latency percentiles, bytes.
///
/// ```swift
/// let recorder = MetricsRecorder()
/// let transport = NetworkSession.shared.transport(with: .metrics(into: recorder))
/// // … later
/// let summary = recorder.summary
/// summary.p90        // .milliseconds(130)
/// print(summary)     // a small table
/// ```
///
/// Percentiles are exact (nearest rank over the recorded durations) until `capacity` requests
/// have been recorded; after that they come from a uniform random sample of `capacity`
/// durations (reservoir sampling), so memory stays bounded.
///
/// - Note: `MetricsRecorder` owns a lock, hence `@unchecked Sendable`; use it from any task.
public final class MetricsRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var reservoir: MetricsReservoir
    private var count = 0
    private var failures = 0
    private var inFlight = 0
    private var bytes = 0

    /// Creates an empty recorder.
    ///
    /// - Parameter capacity: How many durations to keep for the percentiles; they are exact up
    ///   to this many requests. 10 000 by default.
    public init(capacity: Int = 10_000) {
        reservoir = MetricsReservoir(capacity: max(1, capacity))
    }

    /// Takes one event from the composer: a start counts as in flight until its end.
    public func receive(_ event: MetricsEvent) {
        switch event {
        case .started:
            lock.withLock { inFlight += 1 }
        case .finished(let metrics):
            lock.withLock {
                inFlight = max(0, inFlight - 1)
                add(metrics)
            }
        }
    }

    /// Counts a request as in flight, as ``receive(_:)`` does for a start.
    func begin() {
        lock.withLock { inFlight += 1 }
    }

    /// Counts a request begun with ``begin()`` as ended, as ``receive(_:)`` does for an end.
    func end(duration: Duration, failed: Bool, bytes: Int) {
        lock.withLock {
            inFlight = max(0, inFlight - 1)
            count += 1
            failures += failed ? 1 : 0
            self.bytes += bytes
            reservoir.add(duration)
        }
    }

    /// Adds one finished request that did not come through ``receive(_:)`` (so it was never in
    /// flight here).
    func record(_ metrics: RequestMetrics) {
        lock.withLock { add(metrics) }
    }

    /// The summary of everything recorded so far.
    public var summary: MetricsSummary {
        lock.withLock {
            MetricsSummary(
                count: count,
                failures: failures,
                inFlight: inFlight,
                p50: reservoir.percentile(50),
                p90: reservoir.percentile(90),
                p99: reservoir.percentile(99),
                bytes: bytes
            )
        }
    }

    /// Forgets every finished request (requests in flight stay counted).
    public func reset() {
        lock.withLock {
            reservoir = MetricsReservoir(capacity: reservoir.capacity)
            count = 0
            failures = 0
            bytes = 0
        }
    }

    /// Adds `metrics`; the lock must be held.
    private func add(_ metrics: RequestMetrics) {
        count += 1
        failures += metrics.isFailure ? 1 : 0
        bytes += metrics.bytes
        reservoir.add(metrics.duration)
    }
}
