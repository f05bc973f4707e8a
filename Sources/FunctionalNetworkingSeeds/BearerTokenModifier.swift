import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request modifier that sets `Authorization: Bearer <token>`.
///
/// Compose it with a transport to get an authorised transport:
///
/// ```swift
/// let authorized: NetworkClosureType = compose(bearerTokenModifier(token), URLSession.shared.transport)
/// ```
///
/// - Parameter token: The bearer token.
/// - Returns: A function that returns a copy of its request with the header set.
public func bearerTokenModifier(_ token: String) -> @Sendable (URLRequest) -> URLRequest {
    { request in
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }
}
