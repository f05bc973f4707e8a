import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The API of the articles that inspired this package, as they write it: thin adapters over the
// package's one mechanism for each idea. `Transport` is the function every composer wraps,
// `Composer` and `authenticated(by:)` are the package's composers; the names below let the
// articles' code compile unchanged.

/// The articles' name for ``Transport``: `(URLRequest) async throws -> (Data, URLResponse)`.
public typealias NetworkClosureType = Transport

/// The errors of ``AuthComposer`` and ``ComposableNetworking``.
public enum ComposableNetworkingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An authorised request was made while no bearer token was stored.
    case noBearerToken

    /// The error in words.
    public var description: String {
        switch self {
        case .noBearerToken:
            "The request needs a bearer token, but none is stored (sign in first)."
        }
    }
}

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

/// The root of networking in the articles' API: authorised while a bearer token is stored, plain
/// otherwise.
///
/// ```swift
/// let networking = ComposableNetworking(
///     bearerToken: { tokenStore.token },
///     authComposer: auth,
///     baseFunction: URLSession.shared.transport
/// )
/// let (data, _) = try await networking.composition(request)
/// ```
public struct ComposableNetworking: Sendable {
    /// Reads the current token.
    public let bearerToken: @Sendable () -> String?
    /// Used while a token is stored.
    public let authComposer: AuthComposer
    /// Used while no token is stored.
    public let baseFunction: NetworkClosureType

    /// Creates the root composition.
    public init(
        bearerToken: @escaping @Sendable () -> String?,
        authComposer: AuthComposer,
        baseFunction: @escaping NetworkClosureType
    ) {
        self.bearerToken = bearerToken
        self.authComposer = authComposer
        self.baseFunction = baseFunction
    }

    /// The function to send requests with; it decides per request, so signing in or out takes
    /// effect at once.
    public var composition: NetworkClosureType {
        { [bearerToken, authComposer, baseFunction] request in
            if bearerToken() != nil {
                try await authComposer.composition(request)
            } else {
                try await baseFunction(request)
            }
        }
    }
}

/// A request modifier that sets `Authorization: Bearer <token>`.
///
/// Compose it with a transport to get an authorised transport, or make it a composer with
/// ``Composer/modifyingRequest(_:)``:
///
/// ```swift
/// let authorized: Transport = compose(bearerTokenModifier(token), URLSession.shared.transport)
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
