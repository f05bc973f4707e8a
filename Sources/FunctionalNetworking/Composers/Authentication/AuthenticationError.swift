import Foundation

/// Why an authenticated request could not be made.
public enum AuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The credential refresh failed; every request waiting on it gets this error.
    case refreshFailed(String)
    /// Too many refreshes in a short time: the server keeps refusing fresh credentials, so no
    /// more refreshes are tried until the window passes.
    case refreshLimitReached(Int, within: Duration)

    /// The error in words.
    public var description: String {
        switch self {
        case .refreshFailed(let reason):
            "Refreshing the credential failed: \(reason)"
        case .refreshLimitReached(let limit, let window):
            "The server refused \(limit) fresh credentials within \(window); not refreshing again until that time has passed."
        }
    }
}
