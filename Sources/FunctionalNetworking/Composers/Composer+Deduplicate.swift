import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which request headers make two otherwise equal requests different, for
/// ``Composer/deduplicated(matching:includingUnsafeMethods:)`` and ``ResponseCache``.
///
/// Header names compare ignoring case.
///
/// ```swift
/// .deduplicated(matching: .all(except: ["X-Request-ID"]))      // a per-call ID does not matter
/// ResponseCache(varyingOn: .only(["Accept", "Authorization"]))  // only these matter
/// ```
public struct HeaderSelection: Sendable, Hashable {
    private enum Rule: Sendable, Hashable {
        case allExcept(Set<String>)
        case only(Set<String>)
    }

    private let rule: Rule

    private init(_ rule: Rule) {
        self.rule = rule
    }

    /// Every header matters: requests whose headers differ in any way are different.
    public static let all = HeaderSelection(.allExcept([]))

    /// Every header matters except those named, such as a per-call `X-Request-ID` or a
    /// tracing header.
    ///
    /// ```swift
    /// .deduplicated(matching: .all(except: ["X-Request-ID", "traceparent"]))
    /// ```
    ///
    /// - Parameter names: The headers to ignore, in any case.
    /// - Returns: The selection.
    public static func all(except names: Set<String>) -> HeaderSelection {
        HeaderSelection(.allExcept(Set(names.map { $0.lowercased() })))
    }

    /// Only the headers named matter; all others are ignored.
    ///
    /// ```swift
    /// ResponseCache(varyingOn: .only(["Accept", "Authorization"]))
    /// ```
    ///
    /// - Parameter names: The headers that matter, in any case; empty means none do.
    /// - Returns: The selection.
    public static func only(_ names: Set<String>) -> HeaderSelection {
        HeaderSelection(.only(Set(names.map { $0.lowercased() })))
    }

    /// Whether the header called `name` matters.
    ///
    /// - Parameter name: A header name, in any case.
    /// - Returns: `true` when the selection includes it.
    public func includes(_ name: String) -> Bool {
        switch rule {
        case .allExcept(let ignored): !ignored.contains(name.lowercased())
        case .only(let names): names.contains(name.lowercased())
        }
    }

    /// The headers of `request` that matter, keyed by lower-cased name.
    func fields(of request: URLRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] where includes(name) {
            let key = name.lowercased()
            // URLRequest holds one value per name; should two spellings survive, keep both.
            fields[key] = fields[key].map { "\($0), \(value)" } ?? value
        }
        return fields
    }
}

/// Shares one upstream call among concurrent identical requests: the state behind
/// ``Composer/deduplicated(by:)``.
///
/// Requests are identical when their method, URL, body and the headers that matter (``HeaderSelection``)
/// are equal. While a call is in flight, every identical request waits for it and gets the same
/// data and response, or the same error. Once it finishes it is forgotten, so the next identical
/// request goes upstream again; to keep answers for longer, use ``ResponseCache``.
///
/// Hold one to share it between transports, or to see what is in flight:
///
/// ```swift
/// let deduplicator = RequestDeduplicator(matching: .all(except: ["X-Request-ID"]))
/// let transport = URLSession.shared.transport(with: .deduplicated(by: deduplicator))
/// deduplicator.inFlightCount   // distinct upstream calls running now
/// ```
///
/// Cancelling one caller resumes it at once with `CancellationError` and does not disturb the
/// others; when the last caller waiting for a call is cancelled, the upstream call is cancelled.
public final class RequestDeduplicator: Sendable {
    /// The headers that make two requests different.
    public let headers: HeaderSelection
    /// Whether requests with unsafe methods (`POST`, `PUT`, `PATCH`, `DELETE`…) are merged
    /// too; when `false` they always go upstream on their own.
    public let includesUnsafeMethods: Bool

    private let flights = DedupeFlights()

    /// Creates a deduplicator.
    ///
    /// ```swift
    /// let deduplicator = RequestDeduplicator()   // GET, HEAD, OPTIONS, TRACE; all headers matter
    /// ```
    ///
    /// - Parameters:
    ///   - headers: The headers that make two requests different; all of them by default.
    ///   - includingUnsafeMethods: Whether to merge requests whose method is not safe
    ///     (``HTTPMethod/isSafe``) too; `false` by default. Even then two requests with
    ///     different bodies are never merged.
    public init(matching headers: HeaderSelection = .all, includingUnsafeMethods: Bool = false) {
        self.headers = headers
        self.includesUnsafeMethods = includingUnsafeMethods
    }

    /// The number of distinct upstream calls in flight now.
    public var inFlightCount: Int {
        flights.flightCount
    }

    /// The number of callers waiting for an upstream call now, over all calls.
    public var waitingCount: Int {
        flights.waiterCount
    }

    /// Sends `request` through `next`, or waits for the identical call already in flight.
    ///
    /// A request that cannot be compared by value (one whose body is a stream, or without a
    /// URL), or whose method is not safe when ``includesUnsafeMethods`` is `false`, goes
    /// straight to `next`.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - next: The transport that sends it.
    /// - Returns: The data and response of the shared call.
    /// - Throws: The shared call's error; `CancellationError` when this caller is cancelled
    ///   while it waits.
    public func send(_ request: URLRequest, through next: @escaping Transport) async throws -> (Data, URLResponse) {
        guard includesUnsafeMethods || DedupeKey.method(of: request).isSafe,
            let key = DedupeKey(request, headers: headers)
        else {
            return try await next(request)
        }
        return try await flights.send(request, key: key, through: next)
    }
}

extension Composer {
    /// Lets concurrent identical requests share one upstream call.
    ///
    /// While a request is in flight, an identical one (same method, URL, body and headers that
    /// matter) does not go upstream again: it waits for the first and gets the same data and
    /// response, or the same error. Only safe methods (`GET`, `HEAD`, `OPTIONS`, `TRACE`) are
    /// merged unless you opt in; two requests with different bodies never are.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with:
    ///     .deduplicated(matching: .all(except: ["X-Request-ID"])),
    ///     .retry()
    /// )
    /// // Ten views asking for the same product at once make one request.
    /// ```
    ///
    /// Cancelling one caller resumes it with `CancellationError` and leaves the others waiting;
    /// cancelling the last one cancels the upstream call.
    ///
    /// - Parameters:
    ///   - headers: The headers that make two requests different; all of them by default.
    ///   - includingUnsafeMethods: Whether to merge requests with unsafe methods too (only
    ///     when method, URL, headers and body are all equal); `false` by default.
    /// - Returns: The composer.
    /// - Note: Put it above composers whose work should be shared (`.retry()`,
    ///   authentication, logging of the upstream call), and below ``cached(in:)`` so that
    ///   concurrent cache misses make one call. Each composer made by this factory has its
    ///   own table of calls; use ``deduplicated(by:)`` to share one between transports.
    public static func deduplicated(
        matching headers: HeaderSelection = .all,
        includingUnsafeMethods: Bool = false
    ) -> Composer {
        let deduplicator = RequestDeduplicator(matching: headers, includingUnsafeMethods: includingUnsafeMethods)
        return deduplicated(by: deduplicator)
    }

    /// Lets concurrent identical requests share one upstream call, using a deduplicator you
    /// hold (to share it between transports, or to see how many calls are in flight).
    ///
    /// ```swift
    /// let deduplicator = RequestDeduplicator()
    /// let transport = URLSession.shared.transport(with: .deduplicated(by: deduplicator))
    /// ```
    ///
    /// - Parameter deduplicator: The table of calls in flight, and its rules.
    /// - Returns: The composer.
    /// - Note: The order rules of ``deduplicated(matching:includingUnsafeMethods:)`` apply.
    public static func deduplicated(by deduplicator: RequestDeduplicator) -> Composer {
        Composer { next in
            { request in try await deduplicator.send(request, through: next) }
        }
    }
}
