import Foundation

/// What proves who the caller is: a bearer token or a user name and password.
///
/// Its `description` never shows the secret, so a credential is safe to log by accident.
public enum Credential: Sendable, Hashable, CustomStringConvertible {
    /// `Authorization: Bearer <token>`.
    case bearer(String)
    /// `Authorization: Basic <base64(username:password)>`.
    case basic(username: String, password: String)

    /// The `Authorization` header value.
    public var authorizationValue: String {
        switch self {
        case .bearer(let token):
            "Bearer \(token)"
        case .basic(let username, let password):
            "Basic \(Data("\(username):\(password)".utf8).base64EncodedString())"
        }
    }

    /// The kind of credential, without the secret.
    public var description: String {
        switch self {
        case .bearer: "Credential.bearer(<redacted>)"
        case .basic(let username, _): "Credential.basic(username: \(username), password: <redacted>)"
        }
    }
}
