import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The errors of the seed's composable networking.
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
/// The seed's `AuthComposer`: it reads the token each time (SwiftUI's `@Binding` becomes a
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

/// The seed's root of networking: authorised while a bearer token is stored, plain otherwise.
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

/// A request modifier that sets `Authorization: Bearer <token>` (seed 003's
/// `tokenRequestModifier`).
///
/// Compose it with a transport to get an authorised transport:
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

// MARK: - The seed's composers as Composer values

extension Composer {
    /// The seed's ``AuthComposer`` as a composer: every request is authorised with the token
    /// `bearerToken` reads, and fails with ``ComposableNetworkingError/noBearerToken`` when there
    /// is none.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with: .bearerToken { tokenStore.token })
    /// ```
    ///
    /// For refresh on 401, allowed origins and a credential store, use
    /// ``authenticated(by:)`` instead.
    public static func bearerToken(
        _ bearerToken: @escaping @Sendable () -> String?,
        authorizeRequest: @escaping @Sendable (URLRequest, String) -> URLRequest = AuthComposer.bearerAuthorization
    ) -> Composer {
        Composer { next in
            AuthComposer(bearerToken: bearerToken, baseFunction: next, authorizeRequest: authorizeRequest).composition
        }
    }

    /// The seed's ``ComposableNetworking`` as a composer: authorised while `bearerToken`
    /// reads a token, sent as it is while it reads `nil`.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with: .bearerTokenWhenSignedIn { tokenStore.token })
    /// ```
    public static func bearerTokenWhenSignedIn(_ bearerToken: @escaping @Sendable () -> String?) -> Composer {
        Composer { next in
            ComposableNetworking(
                bearerToken: bearerToken,
                authComposer: AuthComposer(bearerToken: bearerToken, baseFunction: next),
                baseFunction: next
            ).composition
        }
    }
}
