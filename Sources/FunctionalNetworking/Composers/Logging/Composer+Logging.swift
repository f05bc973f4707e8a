import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Writes one ``LogRecord`` when a request starts and one when it ends, to a sink you give:
    /// method, redacted URL and headers, status, duration, bytes, the request's id and number
    /// (when ``numbered()`` is above), and the error when it failed.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with:
    ///     .numbered(),
    ///     .logged(to: { record in print(record.message) }, level: .info),
    ///     .retry()
    /// )
    /// // → #1 3F2A9C1E GET https://shop.test/products          (debug, filtered out by .info)
    /// // ← #1 3F2A9C1E GET https://shop.test/products 200 in 84 ms, 512 bytes
    /// ```
    ///
    /// Bridge it to [swift-log](https://github.com/apple/swift-log):
    ///
    /// ```swift
    /// let logger = Logger(label: "shop.network")
    /// let logging = Composer.logged(to: { record in
    ///     logger.log(level: Logger.Level(rawValue: record.level.name) ?? .info, "\(record.message)")
    /// })
    /// ```
    ///
    /// or to OSLog:
    ///
    /// ```swift
    /// let log = os.Logger(subsystem: "shop", category: "network")
    /// let logging = Composer.logged(to: { record in
    ///     log.log(level: record.level >= .error ? .error : .info, "\(record.message, privacy: .public)")
    /// })
    /// ```
    ///
    /// **Levels.** A start is `.debug`; an end is `.info`, `.warning` for a 4xx status, and
    /// `.error` for a 5xx status or any error other than cancellation; a cancelled request is
    /// `.info`. With ``validatingStatus(_:)`` in the stack, as usual, a 4xx or 5xx reaches
    /// logging as an ``HTTPStatusError`` and so is `.error`; a 4xx is `.warning` only in a stack
    /// without it. Records below `level` are not written.
    ///
    /// **Its place.** ``Place/logging``, just below numbering and cancellation: it writes one
    /// pair of records per call, as the caller sent it and as the caller receives it. To log
    /// each attempt instead, place it below ``retry(_:clock:)``:
    /// `Composer(at: .custom, Composer.logged(to: log).wrapping)`. The sink is called on the task making the request, before the response is
    /// passed up; keep it quick.
    ///
    /// **Streams.** For a call made with ``stream(_:through:limits:)`` whose body streams, the
    /// end record is written when the stream ends: with the bytes it brought and the time from
    /// the start (`… 200 in 2.1 s, 48 KB streamed`), or as a failure or a cancellation when the
    /// stream failed or its reader left. It is then written where the stream ended.
    ///
    /// - Parameters:
    ///   - sink: Receives each record; it is called concurrently for concurrent requests.
    ///   - level: The least level written; `.debug` (everything) by default.
    ///   - redaction: What to hide; ``Redaction/default`` by default.
    ///   - clock: Measures the duration; `ContinuousClock()` by default.
    public static func logged(
        to sink: @escaping @Sendable (LogRecord) -> Void,
        level: LogRecord.Level = .debug,
        redaction: Redaction = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Composer {
        Composer.watching(at: .logging) { request, context in
            LoggedCall(request: request, context: context, sink: sink, level: level, redaction: redaction, clock: clock)
        }
    }
}

/// One logged call: its start record written (when the level asks for it), and its end or
/// failure written as it ends. Records below the level are never built: redacting the URL and
/// the headers and writing the messages is most of a logger's cost.
private struct LoggedCall<C: Clock<Duration>>: CallWatch {
    let request: URLRequest
    let context: RequestContext
    let sink: @Sendable (LogRecord) -> Void
    let level: LogRecord.Level
    let redaction: Redaction
    let clock: C
    /// The facts, made at the start when the start record was written.
    let startFacts: LogFacts?
    let start: C.Instant

    init(
        request: URLRequest, context: RequestContext, sink: @escaping @Sendable (LogRecord) -> Void, level: LogRecord.Level,
        redaction: Redaction, clock: C
    ) {
        self.request = request
        self.context = context
        self.sink = sink
        self.level = level
        self.redaction = redaction
        self.clock = clock
        if LogFacts.startLevel >= level {
            let facts = LogFacts(request: request, context: context, redaction: redaction)
            sink(facts.startRecord())
            startFacts = facts
        } else {
            startFacts = nil
        }
        start = clock.now
    }

    private var facts: LogFacts {
        startFacts ?? LogFacts(request: request, context: context, redaction: redaction)
    }

    func ended(with result: Result<(Data, URLResponse), any Error>) {
        switch result {
        case .success(let (data, response)):
            if let stream = context.stream?.channel(for: response) {
                // A streamed body: the call ends when its stream does.
                let facts = facts
                let (sink, level, clock, start) = (sink, level, clock, start)
                stream.whenEnded { bytes, error in
                    let duration = start.duration(to: clock.now)
                    if let error {
                        if LogFacts.failureLevel(of: error) >= level {
                            sink(facts.failureRecord(error, duration: duration))
                        }
                    } else if LogFacts.endLevel(of: response) >= level {
                        sink(facts.endRecord(bytes: bytes, response: response, duration: duration, streamed: true))
                    }
                }
            } else if LogFacts.endLevel(of: response) >= level {
                sink(facts.endRecord(bytes: data.count, response: response, duration: start.duration(to: clock.now)))
            }
        case .failure(let error):
            if LogFacts.failureLevel(of: error) >= level {
                sink(facts.failureRecord(error, duration: start.duration(to: clock.now)))
            }
        }
    }
}
