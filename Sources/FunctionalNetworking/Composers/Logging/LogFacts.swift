import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the logging composer knows about one request, already redacted, and the records it
/// makes from it.
struct LogFacts: Sendable {
    let request: URLRequest
    let context: RequestContext
    let redaction: Redaction
    let method: String
    let url: String
    let requestHeaders: HTTPHeaders

    init(request: URLRequest, context: RequestContext, redaction: Redaction) {
        self.request = request
        self.context = context
        self.redaction = redaction
        method = request.httpMethod ?? "GET"
        url = request.url.map(redaction.redact) ?? "(no URL)"
        let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        requestHeaders = redaction.redact(HTTPHeaders(fields.map { ($0.key, $0.value) }))
    }

    /// `#1 3F2A9C1E GET https://…`, or without the context when there is none.
    private var subject: String {
        [context.id == nil && context.number == nil ? nil : context.description, method, url].compactMap { $0 }.joined(separator: " ")
    }

    func startRecord() -> LogRecord {
        record(.started, level: Self.startLevel, message: "→ \(subject)")
    }

    /// The level of the start record.
    static let startLevel = LogRecord.Level.debug

    /// The level of the end record for `response`: 5xx errors, 4xx warnings, the rest info.
    static func endLevel(of response: URLResponse) -> LogRecord.Level {
        switch (response as? HTTPURLResponse)?.statusCode ?? 200 {
        case 500...: .error
        case 400..<500: .warning
        default: .info
        }
    }

    /// The level of the record for a request that failed with `error`.
    static func failureLevel(of error: any Error) -> LogRecord.Level {
        LogFormat.isCancellation(error) ? .info : .error
    }

    /// The record of a response with `bytes` of body; a `streamed` body's record is written when
    /// the stream ends.
    func endRecord(bytes: Int, response: URLResponse, duration: Duration, streamed: Bool = false) -> LogRecord {
        let status = (response as? HTTPURLResponse)?.statusCode
        let level = Self.endLevel(of: response)
        let statusText = status.map(String.init) ?? "(not HTTP)"
        let message =
            "← \(subject) \(statusText) in \(LogFormat.duration(duration)), \(LogFormat.bytes(bytes))\(streamed ? " streamed" : "")"
        var record = record(.finished, level: level, message: message)
        record.status = status
        record.duration = duration
        record.bytes = bytes
        let headers = RedactSecrets.headers(of: response)
        record.responseHeaders = redaction.redact(HTTPHeaders(headers))
        return record
    }

    func failureRecord(_ error: any Error, duration: Duration) -> LogRecord {
        let described = redaction.describe(error, for: request)
        let elapsed = LogFormat.duration(duration)
        var record =
            if LogFormat.isCancellation(error) {
                record(.cancelled, level: Self.failureLevel(of: error), message: "✕ \(subject) cancelled after \(elapsed)")
            } else {
                record(.failed, level: Self.failureLevel(of: error), message: "✕ \(subject) failed after \(elapsed): \(described)")
            }
        record.duration = duration
        record.error = described
        record.status = (error as? HTTPStatusError)?.status
        return record
    }

    private func record(_ event: LogRecord.Event, level: LogRecord.Level, message: String) -> LogRecord {
        LogRecord(
            event: event, level: level, message: message, method: method, url: url,
            requestHeaders: requestHeaders, requestID: context.id, requestNumber: context.number
        )
    }
}
