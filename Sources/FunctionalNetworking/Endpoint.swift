import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a request goes and what it carries: the input of a networking function
/// `(Endpoint) -> Future<Data>`.
///
/// An endpoint is a plain value. Write a static factory for each of your API's endpoints and
/// refine endpoints with the modifiers (``with(method:)``, ``adding(queryItem:value:)``,
/// ``setting(header:to:)``, ``appending(path:)``…), which return a changed copy:
///
/// ```swift
/// extension Endpoint {
///     static let shop = URL(string: "https://api.example.com/v1")!
///
///     static func product(withID id: Product.ID) -> Endpoint {
///         Endpoint(baseURL: shop, pathComponents: ["products", id.rawValue])
///     }
///
///     static func search(for text: String) -> Endpoint {
///         Endpoint(path: "/search", queryItems: [URLQueryItem(name: "q", value: text)], baseURL: shop)
///     }
/// }
///
/// Endpoint.search(for: "café & crème").url
/// // https://api.example.com/v1/search?q=caf%C3%A9%20%26%20cr%C3%A8me
/// ```
///
/// The path and the query items are raw text: ``url`` percent-encodes them (see ``path`` and
/// ``queryItems``). ``url`` is `nil`, and ``urlRequest()`` throws ``Error/invalidURL``, when no
/// valid absolute URL can be made; ``urlRequest()`` also checks the method and the headers.
public struct Endpoint: Sendable, Hashable {
    /// Where an endpoint's URL starts: a base URL, or a scheme, host and port.
    public enum Destination: Sendable, Hashable {
        /// A base URL such as `https://api.example.com/v1`. Its path is a prefix that the
        /// endpoint's path is joined to with exactly one `/`; its query, if any, comes before
        /// the endpoint's query items; its fragment is dropped.
        case baseURL(URL)
        /// A server: a scheme such as `"https"`, a host name or IP address, and an optional port
        /// in `0...65535`.
        case server(scheme: String, host: String, port: Int?)
    }

    /// The request method; `GET` unless set.
    public var method: HTTPMethod

    /// Where the URL starts: a base URL, or a scheme, host and port.
    public var destination: Destination

    /// The path's segments as raw text, e.g. `["products", "7"]` for `/products/7`.
    ///
    /// Each segment is percent-encoded on its own when the URL is made, `/` included (as `%2F`),
    /// so a segment can be any value: `["products", "a/b c"]` gives `/products/a%2Fb%20c`. The
    /// segments `.` and `..` are encoded too (`%2E`, `%2E%2E`), so they never navigate. An
    /// empty list adds nothing to the destination's path; a last segment `""` gives a trailing
    /// slash.
    public var pathComponents: [String]

    /// The query items, in order, as raw text.
    ///
    /// Names and values are encoded strictly when the URL is made: only `A–Z a–z 0–9 - . _ ~`
    /// stay as they are, and everything else, `+ & = ? / # %` and space included, is
    /// percent-encoded (so a `+` never becomes a space on the server). An item with a `nil`
    /// value gives its name with no `=`.
    public var queryItems: [URLQueryItem]

    /// The header fields; checked by ``urlRequest()``.
    public var headers: HTTPHeaders

    /// The request body, if any.
    public var body: Data?

    /// How long the request may wait for data, in seconds; `nil` leaves the session's
    /// default. It must be positive and finite, or ``urlRequest()`` throws.
    public var timeout: TimeInterval?

    /// The path as raw text, e.g. `"/products/7"`: the ``pathComponents`` joined with `/`, with
    /// a leading `/` (or `""` when there are none).
    ///
    /// Setting it splits the text on `/` into ``pathComponents`` (a leading `/` is optional),
    /// and every other character is percent-encoded when the URL is made: `%` becomes `%25`,
    /// space `%20`, `?` `%3F`, `#` `%23`. To put a `/` inside a segment, set
    /// ``pathComponents`` instead; reading `path` then shows that `/` unencoded.
    ///
    /// ```swift
    /// endpoint.path = "/products/7"     // pathComponents == ["products", "7"]
    /// endpoint.path = "products/7/"     // ["products", "7", ""]: a trailing slash
    /// ```
    public var path: String {
        get { pathComponents.isEmpty ? "" : "/" + pathComponents.joined(separator: "/") }
        set { pathComponents = Self.components(ofPath: newValue) }
    }

    /// Creates an endpoint from all of its parts.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - destination: Where the URL starts.
    ///   - pathComponents: The path's segments as raw text; see ``pathComponents``.
    ///   - queryItems: The query items as raw text; see ``queryItems``.
    ///   - headers: The header fields.
    ///   - body: The request body.
    ///   - timeout: The request's timeout in seconds, or `nil` for the session's.
    public init(
        method: HTTPMethod = .get,
        destination: Destination,
        pathComponents: [String] = [],
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.destination = destination
        self.pathComponents = pathComponents
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Creates an endpoint at a path below a base URL.
    ///
    /// ```swift
    /// let shop = URL(string: "https://api.example.com/v1")!
    /// Endpoint(path: "/products/7", baseURL: shop).url    // https://api.example.com/v1/products/7
    /// ```
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The path as raw text, split on `/`; see ``path``.
    ///   - queryItems: The query items as raw text; see ``queryItems``.
    ///   - headers: The header fields.
    ///   - body: The request body.
    ///   - timeout: The request's timeout in seconds, or `nil` for the session's.
    ///   - baseURL: The URL the path is joined to, with exactly one `/`; it may carry a path
    ///     prefix such as `/v1`.
    public init(
        method: HTTPMethod = .get,
        path: String,
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil,
        baseURL: URL
    ) {
        self.init(
            method: method, destination: .baseURL(baseURL), pathComponents: Self.components(ofPath: path),
            queryItems: queryItems, headers: headers, body: body, timeout: timeout
        )
    }

    /// Creates an endpoint whose path is made of values, each one segment below a base URL.
    ///
    /// ```swift
    /// Endpoint(baseURL: shop, pathComponents: ["products", "a/b c"]).url
    /// // https://api.example.com/v1/products/a%2Fb%20c
    /// ```
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - baseURL: The URL the path is joined to, with exactly one `/`.
    ///   - pathComponents: The segments as raw text; a `/` inside one is encoded as `%2F`.
    ///   - queryItems: The query items as raw text; see ``queryItems``.
    ///   - headers: The header fields.
    ///   - body: The request body.
    ///   - timeout: The request's timeout in seconds, or `nil` for the session's.
    public init(
        method: HTTPMethod = .get,
        baseURL: URL,
        pathComponents: [String],
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.init(
            method: method, destination: .baseURL(baseURL), pathComponents: pathComponents,
            queryItems: queryItems, headers: headers, body: body, timeout: timeout
        )
    }

    /// Creates an endpoint on a server named by scheme, host and port.
    ///
    /// ```swift
    /// Endpoint(host: "127.0.0.1", port: 8080, path: "/health").url   // https://127.0.0.1:8080/health
    /// ```
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - scheme: The scheme, e.g. `"https"` or `"http"`.
    ///   - host: A host name (`xn--` form for international names) or an IP address; IPv6
    ///     with or without brackets.
    ///   - port: The port, in `0...65535`, or `nil` for the scheme's default.
    ///   - path: The path as raw text, split on `/`; see ``path``.
    ///   - queryItems: The query items as raw text; see ``queryItems``.
    ///   - headers: The header fields.
    ///   - body: The request body.
    ///   - timeout: The request's timeout in seconds, or `nil` for the session's.
    public init(
        method: HTTPMethod = .get,
        scheme: String = "https",
        host: String,
        port: Int? = nil,
        path: String,
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.init(
            method: method, destination: .server(scheme: scheme, host: host, port: port),
            pathComponents: Self.components(ofPath: path),
            queryItems: queryItems, headers: headers, body: body, timeout: timeout
        )
    }

    /// Creates an endpoint on a server named by scheme, host and port, whose path is made of
    /// values, each one segment.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - scheme: The scheme, e.g. `"https"` or `"http"`.
    ///   - host: A host name or an IP address.
    ///   - port: The port, in `0...65535`, or `nil` for the scheme's default.
    ///   - pathComponents: The segments as raw text; a `/` inside one is encoded as `%2F`.
    ///   - queryItems: The query items as raw text; see ``queryItems``.
    ///   - headers: The header fields.
    ///   - body: The request body.
    ///   - timeout: The request's timeout in seconds, or `nil` for the session's.
    public init(
        method: HTTPMethod = .get,
        scheme: String = "https",
        host: String,
        port: Int? = nil,
        pathComponents: [String],
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.init(
            method: method, destination: .server(scheme: scheme, host: host, port: port),
            pathComponents: pathComponents,
            queryItems: queryItems, headers: headers, body: body, timeout: timeout
        )
    }

    /// Splits raw path text into segments: an optional leading `/`, then one segment per `/`.
    static func components(ofPath path: String) -> [String] {
        guard !path.isEmpty else { return [] }
        let relative = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}
