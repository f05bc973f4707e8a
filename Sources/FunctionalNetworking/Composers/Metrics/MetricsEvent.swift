import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What ``Composer/metrics(to:redaction:clock:)`` reports: a start, then the end's measurements.
public enum MetricsEvent: Sendable, Hashable {
    /// A request is about to be passed on; the URL is redacted.
    case started(method: String, url: String, requestID: UUID?, requestNumber: Int?)
    /// A request ended, with a response or an error.
    case finished(RequestMetrics)
}
