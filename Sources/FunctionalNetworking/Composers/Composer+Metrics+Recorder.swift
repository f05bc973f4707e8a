import Foundation

/// Keeps a running summary of the requests a ``Composer/metrics(into:redaction:clock:)``
/// composer reports: how many, how many failed, latency percentiles, bytes.
///
/// ```swift
/// let recorder = MetricsRecorder()
/// let transport = URLSession.shared.transport(with: .metrics(into: recorder))
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

    /// Adds one finished request that did not come through ``receive(_:)`` (so it was never in
    /// flight here).
    public func record(_ metrics: RequestMetrics) {
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

/// A snapshot of a ``MetricsRecorder``.
///
/// Its `description` is a small table:
///
/// ```
/// | requests | failures | in flight |    p50 |    p90 |    p99 |  bytes |
/// |      120 |        2 |         1 |  48 ms | 130 ms | 410 ms | 524288 |
/// ```
public struct MetricsSummary: Sendable, Hashable, CustomStringConvertible {
    /// How many requests have ended.
    public var count: Int
    /// How many of them failed (see ``RequestMetrics/isFailure``).
    public var failures: Int
    /// How many have started and not ended.
    public var inFlight: Int
    /// The median duration (nearest rank); `nil` before the first request ends.
    public var p50: Duration?
    /// The 90th percentile duration (nearest rank).
    public var p90: Duration?
    /// The 99th percentile duration (nearest rank).
    public var p99: Duration?
    /// The body bytes received in all.
    public var bytes: Int

    /// Creates a summary.
    public init(count: Int, failures: Int, inFlight: Int = 0, p50: Duration?, p90: Duration?, p99: Duration?, bytes: Int) {
        self.count = count
        self.failures = failures
        self.inFlight = inFlight
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.bytes = bytes
    }

    /// The summary as a two-row table, headings above values.
    public var description: String {
        let percentile = { (value: Duration?) in value.map(LogFormat.duration) ?? "-" }
        let columns = [
            ("requests", "\(count)"), ("failures", "\(failures)"), ("in flight", "\(inFlight)"),
            ("p50", percentile(p50)), ("p90", percentile(p90)), ("p99", percentile(p99)), ("bytes", "\(bytes)"),
        ]
        let widths = columns.map { max($0.0.count, $0.1.count) }
        let row = { (cells: [String]) in
            "| " + zip(cells, widths).map { String(repeating: " ", count: $1 - $0.count) + $0 }.joined(separator: " | ") + " |"
        }
        return row(columns.map(\.0)) + "\n" + row(columns.map(\.1))
    }
}
