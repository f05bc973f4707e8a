/// A credential's debug description and mirror hide its secret as its description does, so
/// that `dump` and `String(reflecting:)` never show the token or the password.
extension Credential: CustomDebugStringConvertible, CustomReflectable {
    /// The same as the description: `Credential.bearer(<redacted>)`, or
    /// `Credential.basic(username: ada, password: <redacted>)`.
    public var debugDescription: String {
        description
    }

    /// The kind of credential, its user name for Basic, and `<redacted>` for the secret.
    public var customMirror: Mirror {
        let marker = Redaction.default.marker
        return switch self {
        case .bearer: Mirror(self, children: ["bearer": marker], displayStyle: .enum)
        case .basic(let username, _):
            Mirror(self, children: ["username": username, "password": marker], displayStyle: .enum)
        }
    }
}

/// A store shows whether it holds a credential, and of which kind, never the secret.
extension CredentialStore: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `CredentialStore(Credential.bearer(<redacted>))`, or `CredentialStore(signed out)`.
    public nonisolated var description: String {
        "CredentialStore(\(shownCredential))"
    }

    /// The same as the description.
    public nonisolated var debugDescription: String {
        description
    }

    /// The credential as its description shows it (the secret hidden), or `signed out`.
    public nonisolated var customMirror: Mirror {
        Mirror(self, children: ["credential": shownCredential], displayStyle: .class)
    }

    /// The current credential's description, or `signed out`.
    private nonisolated var shownCredential: String {
        snapshot().credential?.description ?? "signed out"
    }
}

/// An authenticator shows its store (the secret hidden), its origins and its refresh limits.
extension Authenticator: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Authenticator(CredentialStore(Credential.bearer(<redacted>)), origins: [https://api.shop.test:443], refresh: yes, at most 3 per 60.0 seconds)`.
    public var description: String {
        let origins = allowedOrigins.map(\.description).sorted().joined(separator: ", ")
        return "Authenticator(\(store), origins: [\(origins)], refresh: \(refresh == nil ? "no" : "yes"), "
            + "at most \(refreshLimit) per \(refreshWindow))"
    }

    /// The same as the description.
    public var debugDescription: String {
        description
    }

    /// The store (its secret hidden), the allowed origins, whether it refreshes, and the limits.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "store": store, "allowedOrigins": allowedOrigins.map(\.description).sorted(),
                "refreshes": refresh != nil, "refreshLimit": refreshLimit, "refreshWindow": "\(refreshWindow)",
            ],
            displayStyle: .struct
        )
    }
}
