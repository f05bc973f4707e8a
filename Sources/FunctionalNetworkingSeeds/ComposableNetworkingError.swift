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
