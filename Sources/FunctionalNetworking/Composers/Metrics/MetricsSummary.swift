import Foundation

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
