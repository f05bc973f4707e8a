import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Registers every request in `scope` while it is in flight, so that
    /// ``CancellationScope/cancel(id:)`` and ``CancellationScope/cancelAll()`` can stop it.
    ///
    /// Its place is ``Place/cancellation``, right below numbering. The id is the one
    /// ``numbered()`` gave, else one chosen with
    /// ``RequestContext/withID(_:_:)``, else a new one. The call below runs in a
    /// child `Task`; when the scope (or the caller's own task) cancels the request, the caller
    /// gets `CancellationError` at once and that task is cancelled. A `URLError.cancelled`
    /// from below is reported as `CancellationError` as well.
    ///
    /// ```swift
    /// let scope = CancellationScope()
    /// let networking = networking(from: NetworkSession.shared.transport(with:
    ///     .numbered(),
    ///     .logged(to: log),
    ///     .cancellable(in: scope)
    /// ))
    /// let downloads = catalogue.map(networking)
    /// scope.cancelAll()   // the user left the screen
    /// ```
    ///
    /// - Parameter scope: Where the requests are registered; one scope may serve many stacks.
    public static func cancellable(in scope: CancellationScope) -> Composer {
        Composer(at: .cancellation) { next in
            { request in
                let id = RequestContext.current.id ?? UUID()
                let relay = CancelRelay<(Data, URLResponse)>()
                let token = scope.register(id: id) { relay.cancel() }
                defer { scope.unregister(token) }
                return try await withTaskCancellationHandler {
                    try await relay.run { try await next(request) }
                } onCancel: {
                    relay.cancel()
                }
            }
        }
    }
}
