import Foundation

extension Endpoint {
    /// The endpoint's absolute URL, with the path and query items percent-encoded; `nil` when
    /// no valid absolute URL can be made.
    ///
    /// It is `nil` for an empty or malformed host (`""`, `"a b"`, `"example.com/x"`), a scheme
    /// that is not a scheme (`""`, `"ht tp"`), a port outside `0...65535`, or a base URL without
    /// a scheme or a host (`/v1`, `file:///tmp`). It never traps, whatever the input.
    ///
    /// ```swift
    /// Endpoint(baseURL: shop, path: "/search", queryItems: [URLQueryItem(name: "q", value: "a+b")]).url
    /// // https://api.example.com/v1/search?q=a%2Bb
    /// ```
    public var url: URL? {
        guard let start = destination.urlStart() else { return nil }
        var text = start.schemeAndAuthority
        if pathComponents.isEmpty {
            text += start.path
        } else {
            text += start.path.hasSuffix("/") ? String(start.path.dropLast()) : start.path
            for component in pathComponents {
                text += "/"
                text += PercentEncoding.encodePathSegment(component)
            }
        }
        var query = start.query.map { [$0] } ?? []
        for item in queryItems {
            let name = PercentEncoding.encodeQueryComponent(item.name)
            query.append(item.value.map { "\(name)=\(PercentEncoding.encodeQueryComponent($0))" } ?? name)
        }
        if !query.isEmpty {
            text += "?" + query.joined(separator: "&")
        }
        return Self.checkedAbsoluteURL(text)
    }

    /// `text` parsed as a URL, if it parses to one with a valid scheme, a valid host and a port
    /// in range.
    private static func checkedAbsoluteURL(_ text: String) -> URL? {
        guard let url = URL(string: text),
            let scheme = url.scheme, URLSyntax.isValidScheme(scheme),
            let host = url.host, URLSyntax.authorityHost(host) != nil
        else { return nil }
        if let port = url.port, !URLSyntax.validPorts.contains(port) { return nil }
        return url
    }
}

extension Endpoint.Destination {
    /// The fixed start of a destination's URLs, as percent-encoded text.
    struct URLStart {
        /// `scheme://authority`, e.g. `https://api.example.com:8443`.
        var schemeAndAuthority: String
        /// The path prefix, `""` or starting with `/`, e.g. `/v1`.
        var path: String
        /// The query to keep, without `?`; `nil` when there is none.
        var query: String?
    }

    /// The start of this destination's URLs, or `nil` when it cannot start an absolute URL.
    func urlStart() -> URLStart? {
        switch self {
        case .server(let scheme, let host, let port):
            guard URLSyntax.isValidScheme(scheme), let host = URLSyntax.authorityHost(host) else { return nil }
            var authority = host
            if let port {
                guard URLSyntax.validPorts.contains(port) else { return nil }
                authority += ":\(port)"
            }
            return URLStart(schemeAndAuthority: "\(scheme)://\(authority)", path: "", query: nil)
        case .baseURL(let url):
            return Self.urlStart(of: url.absoluteString)
        }
    }

    /// Splits an absolute URL's text into scheme and authority, path and query, dropping the
    /// fragment; `nil` when it has no valid scheme followed by `//` and an authority.
    private static func urlStart(of text: String) -> URLStart? {
        let withoutFragment = text.prefix { $0 != "#" }
        let query = withoutFragment.firstIndex(of: "?").map { withoutFragment[$0...].dropFirst() }
        let beforeQuery = withoutFragment.prefix { $0 != "?" }
        guard let separator = beforeQuery.range(of: "://"),
            URLSyntax.isValidScheme(String(beforeQuery[..<separator.lowerBound]))
        else { return nil }
        let pathStart = beforeQuery[separator.upperBound...].firstIndex(of: "/") ?? beforeQuery.endIndex
        guard pathStart > separator.upperBound else { return nil }
        return URLStart(
            schemeAndAuthority: String(beforeQuery[..<pathStart]),
            path: String(beforeQuery[pathStart...]),
            query: query.flatMap { $0.isEmpty ? nil : String($0) }
        )
    }
}
