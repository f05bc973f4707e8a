import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything one call carries besides its `URLRequest`: its id and number, the most bytes its
/// body may take in memory, whether it is a download and where to, who watches its progress,
/// and whether its status has been checked.
///
/// A ``Transport`` is one function, `(URLRequest) async throws -> (Data, URLResponse)`,
/// so the settings of one call travel beside it, in one task-local value, ``current``, that
/// every composer — your own included — reads, and may set for the call below it. Each entry
/// point sets it for its call: ``networking(from:)`` starts from the context it is called in and
/// sets the endpoint's ``Endpoint/maximumResponseSize``; ``download(_:to:through:maximumSize:)``
/// marks the call as a download; ``withTransferProgress(_:onProgress:)`` adds a progress
/// observer; ``Composer/numbered()`` gives the id and number.
///
/// ```swift
/// extension Composer {
///     /// Counts the calls that keep their body in memory, and passes downloads.
///     static func counted(_ counter: Counter) -> Composer {
///         Composer { next in
///             { request in
///                 let context = RequestContext.current
///                 if !context.isDownload {
///                     counter.add(context.id)
///                 }
///                 return try await next(request)
///             }
///         }
///     }
/// }
/// ```
///
/// ## Work a composer starts for itself
///
/// A task-local value is inherited by everything started below it. Work that a composer starts
/// for its own purpose is not the caller's call, so it must not run under the caller's context:
/// a credential refresh must not be written to the caller's download file nor held to the
/// caller's size limit. Start it with a context of its own:
///
/// ```swift
/// let token = try await RequestContext.$current.withValue(RequestContext()) {
///     try await refreshToken()
/// }
/// ```
///
/// The package's own composers do this for a credential refresh (``Composer/authenticated(by:)``),
/// for the call that callers of ``Composer/deduplicated(matching:includingUnsafeMethods:)`` and
/// ``Composer/cached(in:)`` share, and for a cache revalidation. The callers that share a call
/// each keep their own limit: a body larger than a caller's ``maximumResponseSize`` fails that
/// caller with ``TransportError/responseTooLarge(limit:url:)``, whoever started the call.
///
/// The context lives in memory only: nothing of it is sent on the wire.
public struct RequestContext: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The call's id: the one chosen with ``withID(_:_:)``, or the one ``Composer/numbered()``
    /// gives; `nil` when neither did.
    public var id: UUID?

    /// The call's position among the calls that passed the same ``Composer/numbered()``: 1, 2,
    /// 3…; `nil` without it.
    public var number: Int?

    /// The most bytes of the response body kept in memory for this call; `nil` for the
    /// session's ``TransportPolicy/maximumResponseSize``. ``networking(from:)`` sets it from
    /// ``Endpoint/maximumResponseSize``.
    public var maximumResponseSize: Int?

    /// Where the body of a download goes, and its limit; `nil` for a call whose body is kept in
    /// memory. Set by ``download(_:to:through:maximumSize:)``.
    var download: DownloadTarget?

    /// Where a streamed call's 2xx body goes, and its limits; `nil` for a call whose body is
    /// returned whole. Set by ``stream(_:through:limits:)``.
    var stream: StreamTarget?

    /// Who watches the transfer; set by ``withTransferProgress(_:onProgress:)``.
    var progress: ProgressReporter?

    /// Where the stack's ``Composer/validatingStatus(_:)`` records that it checked the status,
    /// so that the entry point does not check it again. Set by each entry point.
    var statusCheck: StatusCheck?

    /// What the package learns about the call as it runs (the attempts made, a redirect that
    /// dropped credentials), for its final error to say. Set by each entry point.
    var record: CallRecord?

    /// The cookies a composer above already looked up for this request.
    var storedCookies: StoredCookiesMemo?

    /// Creates a context: an empty one (no id, no limit of its own, no download) unless you
    /// say.
    ///
    /// - Parameters:
    ///   - id: The call's id.
    ///   - number: The call's sequence number.
    ///   - maximumResponseSize: The most bytes of the body kept in memory; `nil` for the
    ///     session's limit.
    public init(id: UUID? = nil, number: Int? = nil, maximumResponseSize: Int? = nil) {
        self.id = id
        self.number = number
        self.maximumResponseSize = maximumResponseSize
    }

    /// The context of the call the current task is making; an empty context outside any call.
    ///
    /// Read it in a composer; set it for the call below with
    /// `RequestContext.$current.withValue(_:operation:)`.
    @TaskLocal public static var current = RequestContext()

    /// Whether this call writes its body to a file (``download(_:to:through:maximumSize:)``)
    /// rather than keeping it in memory. A composer that keeps bodies (a cache) lets such a call
    /// pass: its body is empty by the time it returns.
    public var isDownload: Bool {
        download != nil
    }

    /// Whether this call hands its 2xx body to the caller as it arrives
    /// (``stream(_:through:limits:)``) rather than returning it. A composer that keeps bodies
    /// (a cache) lets such a call pass: its body is empty when it returns, and arrives later.
    public var isStreamed: Bool {
        stream != nil
    }

    /// The file a download's body goes to; `nil` when the call is not a download.
    public var downloadDestination: URL? {
        download?.destination
    }

    /// Records that the response's status was checked, and accepted, by the stack: the entry
    /// point (``networking(from:)``, ``download(_:to:through:maximumSize:)``) then does not
    /// check it again. ``Composer/validatingStatus(_:)`` calls it; so does a composer of your own
    /// that decides which statuses are success.
    public func acceptStatus() {
        statusCheck?.markAccepted()
    }

    /// Runs `operation` so that the call it makes gets the id `id`: ``Composer/numbered()``
    /// keeps it (the number is still counted), and ``Composer/cancellable(in:)`` registers the
    /// call under it.
    ///
    /// Use it to cancel a request by id. A `Future` made inside `operation` (by
    /// ``networking(from:)``, say) starts its task there, so it carries the id too:
    ///
    /// ```swift
    /// let id = UUID()
    /// let download = RequestContext.withID(id) { networking(.catalogue) }
    /// scope.cancel(id: id)   // download fails with CancellationError
    /// ```
    ///
    /// - Parameters:
    ///   - id: The id to give the call.
    ///   - operation: The work that makes the call.
    /// - Returns: What `operation` returns.
    public static func withID<Result>(_ id: UUID, _ operation: () throws -> Result) rethrows -> Result {
        var context = current
        context.id = id
        context.number = nil
        return try $current.withValue(context, operation: operation)
    }

    /// Runs `operation` so that the call it makes gets the id `id`.
    ///
    /// ```swift
    /// let id = UUID()
    /// let (data, _) = try await RequestContext.withID(id) { try await transport(request) }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The id to give the call.
    ///   - isolation: The caller's isolation, kept for `operation`.
    ///   - operation: The work that makes the call.
    /// - Returns: What `operation` returns.
    public static func withID<Result>(
        _ id: UUID,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        var context = current
        context.id = id
        context.number = nil
        return try await $current.withValue(context, operation: operation, isolation: isolation)
    }

    /// `#3 3F2A9C1E`: the number and the last eight characters of the id (the part that
    /// differs between the calls of one ``Composer/numbered()``), as much of them as the call
    /// has; `-` for neither.
    public var description: String {
        switch (number, id) {
        case let (number?, id?): "#\(number) \(id.uuidString.suffix(8))"
        case let (number?, nil): "#\(number)"
        case let (nil, id?): String(id.uuidString.suffix(8))
        case (nil, nil): "-"
        }
    }

    /// The description with the type's name and the settings a caller sees:
    /// `RequestContext(#3 3F2A9C1E, maximum response size: 1024 bytes, download)` (or
    /// `streamed`).
    public var debugDescription: String {
        var parts = [description]
        if let maximumResponseSize {
            parts.append("maximum response size: \(maximumResponseSize) bytes")
        }
        if isDownload {
            parts.append("download")
        }
        if isStreamed {
            parts.append("streamed")
        }
        return "RequestContext(\(parts.joined(separator: ", ")))"
    }

    /// The id, the number, the size limit and whether it is a download or streamed; the package's own
    /// settings (the cookies it remembered for the request among them) are left out.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id as Any, "number": number as Any, "maximumResponseSize": maximumResponseSize as Any,
                "isDownload": isDownload, "isStreamed": isStreamed,
            ],
            displayStyle: .struct
        )
    }

    // MARK: - Inside the package

    /// The context for a call that callers share (de-duplication, a cache miss or
    /// revalidation): none of the caller's settings, but its progress observer (the shared
    /// call's transfer is this caller's too) and its memo of the request's cookies (the same
    /// request).
    var forSharedCall: RequestContext {
        var shared = RequestContext()
        shared.progress = progress
        shared.storedCookies = storedCookies
        return shared
    }

    /// Throws when `data`, the body a shared call or a cache gave, is larger than this call's
    /// own ``maximumResponseSize``.
    func checkSize(of data: Data, for request: URLRequest) throws {
        if let limit = maximumResponseSize, data.count > limit {
            throw TransportError.responseTooLarge(limit: limit, url: request.url.map { Redaction.default.redact($0) } ?? "")
        }
    }
}
