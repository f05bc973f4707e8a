import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Changes every request before passing it on — a request modifier as a composer. Its
    /// place is ``Place/custom``: each attempt is changed, and the cache and de-duplication see
    /// the change.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with: .modifyingRequest { request in
    ///     var request = request
    ///     request.setValue("en", forHTTPHeaderField: "Accept-Language")
    ///     return request
    /// })
    /// ```
    ///
    /// - Parameter modify: Returns the request to send; throwing stops the request.
    public static func modifyingRequest(
        _ modify: @escaping @Sendable (URLRequest) throws -> URLRequest
    ) -> Composer {
        Composer { next in
            { request in try await next(modify(request)) }
        }
    }
}
