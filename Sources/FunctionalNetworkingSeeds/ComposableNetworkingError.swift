import Foundation

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

extension ComposableNetworkingError: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
