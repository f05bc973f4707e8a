import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Shares one upstream call among concurrent identical requests: the state behind
/// ``Composer/deduplicated(by:)``.
///
/// Requests are identical when their method, URL, body and the headers that matter (``HeaderSelection``)
/// are equal, and they carry the same credentials. While a call is in flight, every identical request waits for it and gets the same
/// data and response, or the same error. Once it finishes it is forgotten, so the next identical
/// request goes upstream again; to keep answers for longer, use ``ResponseCache``.
///
/// Hold one to share it between transports, or to see what is in flight:
///
/// ```swift
/// let deduplicator = RequestDeduplicator(matching: .all(except: ["X-Request-ID"]))
/// let transport = NetworkSession.shared.transport(with: .deduplicated(by: deduplicator))
/// deduplicator.inFlightCount   // distinct upstream calls running now
/// ```
///
/// The first caller of an upstream call makes it itself (a request with nothing to share costs
/// no task, no continuation and no thread hop; on the direct path, no task at all); identical
/// requests that come while it runs wait for it. Cancellation follows from that:
///
/// - A waiting caller that is cancelled is resumed at once with `CancellationError`; the call
///   goes on for the others.
/// - Cancelling the caller that makes the call cancels the call. With nobody waiting, that is
///   all. If callers are waiting and the call fails, they make it again: one of them goes
///   upstream and the others wait for it, so no caller gets a cancellation it did not ask
///   for. If the call succeeds all the same, they share its answer.
///
/// **Users are never merged.** Two requests that carry different credentials, or one with and
/// one without, never share a call, whatever the header selection says, even when one
/// deduplicator serves several accounts' transports. The credentials are those of
/// ``ResponseCache``: the headers `credentials` calls secret (`Authorization`, `Cookie`,
/// `X-API-Key`… and those you name) and the cookies `cookieStorage` would add. Credentials
/// added below the deduplicator cannot be seen, which is why its place is below
/// ``Composer/authenticated(by:)``.
public final class RequestDeduplicator: Sendable {
    /// The headers that make two requests different.
    public let headers: HeaderSelection
    /// Whether requests with unsafe methods (`POST`, `PUT`, `PATCH`, `DELETE`…) are merged
    /// too; when `false` they always go upstream on their own.
    public let includesUnsafeMethods: Bool

    private let flights = SharedFlights()
    private let carriers: CredentialCarriers

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
    ///   - credentials: The headers that carry a credential are those it calls secret;
    ///     ``Redaction/default`` by default. Requests with different credentials are never
    ///     merged, whatever `headers` says.
    ///   - cookieStorage: The cookie storage of the session below, whose cookies for a
    ///     request count as its credentials; `HTTPCookieStorage.shared` by default, `nil` when
    ///     the session stores no cookies.
    public init(
        matching headers: HeaderSelection = .all,
        includingUnsafeMethods: Bool = false,
        credentials: Redaction = .default,
        cookieStorage: HTTPCookieStorage? = .shared
    ) {
        self.headers = headers
        self.includesUnsafeMethods = includingUnsafeMethods
        carriers = CredentialCarriers(redaction: credentials, cookieStorage: cookieStorage)
    }

    /// The number of distinct upstream calls in flight now.
    public var inFlightCount: Int {
        flights.flightCount
    }

    /// The number of callers waiting for an upstream call now, over all calls: the caller
    /// that makes each call and those that wait for it.
    public var waitingCount: Int {
        flights.callerCount
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
    ///   while it waits for another caller's call.
    func send(_ request: URLRequest, through next: @escaping Transport) async throws -> (Data, URLResponse) {
        let context = RequestContext.current
        guard let key = sharedKey(of: request, context: context) else {
            return try await next(request)
        }
        return try await flights.send(request, key: key, context: context, through: next)
    }

    /// The direct form of ``send(_:through:)``: the future of the shared call's answer, or of
    /// `next`'s own for a request that is never shared.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The caller's context: passed on to `next` for a request that is not shared;
    ///     a shared call runs in a context of its own.
    ///   - next: The transport that sends it.
    /// - Returns: The future of the data and response.
    func send(_ request: URLRequest, context: RequestContext, through next: @escaping DirectTransport) -> Future<(Data, URLResponse)> {
        guard let key = sharedKey(of: request, context: context) else {
            return next(request, context)
        }
        return flights.send(request, key: key, context: context, through: next)
    }

    /// The key `request` shares calls by, or `nil` when it goes to `next` on its own.
    private func sharedKey(of request: URLRequest, context: RequestContext) -> RequestKey? {
        // A download's body goes to its caller's own file, a stream's to its reader: never shared.
        guard !context.isDownload, !context.isStreamed, includesUnsafeMethods || RequestKey.method(of: request).isSafe else {
            return nil
        }
        return RequestKey(request, headers: headers, credentials: carriers)
    }
}
