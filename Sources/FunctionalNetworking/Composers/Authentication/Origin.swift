import Foundation

/// Where a request goes: scheme, host and port. Credentials are only ever attached to the
/// origins a caller allowed.
///
/// ```swift
/// let api = Origin(url: URL(string: "https://api.shop.example")!)   // port 443 implied
/// ```
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lower-cased: `https`.
    public let scheme: String
    /// The host, lower-cased.
    public let host: String
    /// The port; the scheme's default (80 or 443) when the URL names none.
    public let port: Int

    /// Creates an origin from its parts.
    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    /// The origin of `url`, or `nil` for a URL without scheme or host.
    public init?(url: URL?) {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            return nil
        }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        self.init(scheme: scheme, host: host, port: port)
    }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(host):\(port)" }
}
