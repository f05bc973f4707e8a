import Foundation

/// The host a ``RequestThrottle`` counts a request against: its host name (lower-cased) and
/// port, the scheme's default port when the URL names none.
struct ThrottleHost: Hashable, Sendable {
    let name: String
    let port: Int

    /// The host of `url`; requests without a URL or host all share one empty host.
    init(_ url: URL?) {
        name = url?.host?.lowercased() ?? ""
        port = url?.port ?? Self.defaultPort(forScheme: url?.scheme)
    }

    private init(name: String, port: Int) {
        self.name = name
        self.port = port
    }

    /// The one key of a throttle without a limit per host: every request shares it, so the
    /// URL need not be parsed, and one first-in-first-out queue orders them all.
    static let anyHost = ThrottleHost(name: "", port: -1)

    private static func defaultPort(forScheme scheme: String?) -> Int {
        switch scheme?.lowercased() {
        case "http", "ws": 80
        case "https", "wss": 443
        default: -1
        }
    }
}
