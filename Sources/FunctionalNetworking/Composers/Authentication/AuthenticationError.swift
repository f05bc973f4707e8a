import Foundation

/// Why an authenticated request could not be made.
///
/// A failed refresh keeps the refresh's own error, so that an app can tell a refresh token the
/// server rejected (sign the user out) from a network that is down (try later):
///
/// ```swift
/// do {
///     _ = try await transport(request)
/// } catch AuthenticationError.refreshFailed(let cause as HTTPStatusError) where [400, 401].contains(cause.status) {
///     signOut()
/// } catch let error as AuthenticationError where error.underlyingError is TransportError {
///     showOffline()
/// }
/// ```
public enum AuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The credential refresh failed with the error it carries (the refresh function's own: an
    /// ``HTTPStatusError`` from the token endpoint, a ``TransportError``…); every request
    /// waiting on it gets this error.
    case refreshFailed(any Error)
    /// Too many refreshes in a short time: the server keeps refusing fresh credentials, so no
    /// more refreshes are tried until the window passes.
    case refreshLimitReached(Int, within: Duration)

    /// The error in words.
    public var description: String {
        switch self {
        case .refreshFailed(let error):
            "Refreshing the credential failed: \(Redaction.default.describe(error))"
        case .refreshLimitReached(let limit, let window):
            "The server refused \(limit) fresh credentials within \(window); not refreshing again until that time has passed."
        }
    }
}

extension AuthenticationError {
    /// The error of a failed refresh (``refreshFailed(_:)``); `nil` for
    /// ``refreshLimitReached(_:within:)``.
    public var underlyingError: (any Error)? {
        if case .refreshFailed(let error) = self { error } else { nil }
    }

    /// Whether two errors are the same case with the same words: a failed refresh's errors
    /// compare by their type and description.
    public static func == (lhs: AuthenticationError, rhs: AuthenticationError) -> Bool {
        switch (lhs, rhs) {
        case let (.refreshFailed(left), .refreshFailed(right)):
            type(of: left) == type(of: right) && lhs.description == rhs.description
        case let (.refreshLimitReached(leftLimit, leftWindow), .refreshLimitReached(rightLimit, rightWindow)):
            leftLimit == rightLimit && leftWindow == rightWindow
        default:
            false
        }
    }
}

extension AuthenticationError: CustomDebugStringConvertible, CustomReflectable {
    /// The same words as ``description``.
    public var debugDescription: String { description }

    /// What `dump` shows: the words of ``description`` (secrets redacted), not the fields of the
    /// refresh's error, which may hold a token.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .enum)
    }
}

extension AuthenticationError: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
