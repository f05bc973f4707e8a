import Foundation
import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Authorises every request with the current bearer token, then hands it to the base function.
///
/// It reads the token each time (SwiftUI's `@Binding` becomes a
/// getter closure, which a view feeds from its state), and throws
/// ``ComposableNetworkingError/noBearerToken`` when there is none.
///
/// ```swift
/// let auth = AuthComposer(
///     bearerToken: { tokenStore.token },
///     baseFunction: URLSession.shared.transport,
///     authorizeRequest: AuthComposer.bearerAuthorization
/// )
/// let (data, _) = try await auth.composition(request)
/// ```
///
/// - Note: The package's own way to attach a credential is `Composer.authenticated(by:)`, in
///   `FunctionalNetworking`, which also refreshes the credential when the server refuses it.
public struct AuthComposer: Sendable {
    /// Reads the current token.
    public let bearerToken: @Sendable () -> String?
    /// The function that sends the authorised request.
    public let baseFunction: NetworkClosureType
    /// Puts the token on a request.
    public let authorizeRequest: @Sendable (URLRequest, String) -> URLRequest

    /// Creates the composer.
    ///
    /// - Parameters:
    ///   - bearerToken: Reads the current token; `nil` when signed out.
    ///   - baseFunction: Sends the authorised request.
    ///   - authorizeRequest: Puts the token on a request; ``bearerAuthorization(_:token:)``
    ///     by default.
    public init(
        bearerToken: @escaping @Sendable () -> String?,
        baseFunction: @escaping NetworkClosureType,
        authorizeRequest: @escaping @Sendable (URLRequest, String) -> URLRequest = AuthComposer.bearerAuthorization
    ) {
        self.bearerToken = bearerToken
        self.baseFunction = baseFunction
        self.authorizeRequest = authorizeRequest
    }

    /// The authorising function: the same shape as the base function.
    public var composition: NetworkClosureType {
        { [bearerToken, baseFunction, authorizeRequest] request in
            guard let token = bearerToken() else {
                throw ComposableNetworkingError.noBearerToken
            }
            return try await baseFunction(authorizeRequest(request, token))
        }
    }

    /// Sets `Authorization: Bearer <token>` on `request`.
    @Sendable
    public static func bearerAuthorization(_ request: URLRequest, token: String) -> URLRequest {
        bearerTokenModifier(token)(request)
    }
}
