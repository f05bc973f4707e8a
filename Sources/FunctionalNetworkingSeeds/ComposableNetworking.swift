import FunctionalNetworking

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
    ///
    /// - Parameters:
    ///   - bearerToken: Reads the current token; `nil` when signed out.
    ///   - authComposer: Sends the requests while a token is stored.
    ///   - baseFunction: Sends the requests while none is.
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
