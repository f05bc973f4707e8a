import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Turns a response whose status is not in `acceptable` into an ``HTTPStatusError``
    /// carrying the status, headers and body.
    ///
    /// ```swift
    /// NetworkSession.shared.transport(with: .retry(), .validatingStatus(200..<400))
    /// ```
    ///
    /// This is the one place a status is checked: ``networking(from:)`` honours what it
    /// accepted (a 304 above, say) and checks for 2xx itself only when the stack has no
    /// `validatingStatus`.
    ///
    /// - Parameter acceptable: The statuses that pass; 200–299 by default.
    /// - Note: Its place is ``Place/statusValidation``, below logging and metrics (which record
    ///   what the caller receives) and above everything else, which so sees a status as a
    ///   response: retry decides by it, authentication refreshes on a 401, the cache keeps
    ///   only a 2xx. The caller meets the same ``HTTPStatusError`` whatever happened below.
    public static func validatingStatus(_ acceptable: Range<Int> = HTTPStatusError.successStatuses) -> Composer {
        Composer(
            at: .statusValidation,
            { next in
                { request in
                    let (context, record) = StatusValidation.prepared(RequestContext.current)
                    do {
                        let (data, response) = try await RequestContext.$current.withValue(context) { try await next(request) }
                        return try StatusValidation.checked(data, response, acceptable: acceptable, context: context)
                    } catch {
                        throw record.annotate(error)
                    }
                }
            },
            direct: { next in
                { request, context in
                    let (context, record) = StatusValidation.prepared(context)
                    return next(request, context)
                        .map { data, response in try StatusValidation.checked(data, response, acceptable: acceptable, context: context) }
                        .mapError { error in record.annotate(error) }
                }
            }
        )
    }
}

/// The two steps of ``Composer/validatingStatus(_:)``, whichever shape of transport it wraps.
private enum StatusValidation {
    /// `context` with the entry point's record, or one of its own for a stack called directly,
    /// so that the error says how many attempts were made and what a redirect dropped.
    static func prepared(_ context: RequestContext) -> (RequestContext, CallRecord) {
        var context = context
        let record = context.record ?? CallRecord()
        context.record = record
        return (context, record)
    }

    /// The answer, if its status is acceptable (the entry point then checks it no more), or the
    /// ``HTTPStatusError`` that carries it.
    static func checked(
        _ data: Data, _ response: URLResponse, acceptable: Range<Int>, context: RequestContext
    ) throws -> (Data, URLResponse) {
        try HTTPStatusError.check(response, data: data, acceptable: acceptable)
        context.acceptStatus()
        return (data, response)
    }
}
