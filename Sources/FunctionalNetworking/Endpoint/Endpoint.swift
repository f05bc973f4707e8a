import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a request goes and what it carries: the input of a networking function
/// `(Endpoint) -> Future<Data>`.
///
/// An endpoint is a plain value, made one way from a base URL and a path
/// (``init(method:baseURL:path:queryItems:headers:timeout:)``) and one way from its parts
/// (``init(method:destination:path:queryItems:headers:timeout:)``), with the same
/// argument order. Write a static factory for each of your API's endpoints and
/// refine endpoints with the modifiers (``with(method:)``, ``adding(queryItem:value:)``,
/// ``setting(header:to:)``, ``appending(path:)``…), which return a changed copy:
///
/// ```swift
/// extension Endpoint {
///     static let shop = URL(string: "https://api.example.com/v1")!
///
///     static func reviews(ofProductWithID id: Product.ID) -> Endpoint {
///         Endpoint(baseURL: shop).appending(pathComponents: ["products", String(id), "reviews"])
///     }
///
///     static func search(for text: String) -> Endpoint {
///         Endpoint(baseURL: shop, path: "/search", queryItems: [URLQueryItem(name: "q", value: text)])
///     }
/// }
/// ```
///
/// ```swift
/// Endpoint.search(for: "café & crème").url
/// // https://api.example.com/v1/search?q=caf%C3%A9%20%26%20cr%C3%A8me
/// ```
///
/// The path and the query items are raw text: ``url`` percent-encodes them (see ``path`` and
/// ``queryItems``). ``url`` is `nil`, and ``urlRequest()`` throws ``Error/invalidURL(_:)``, when no
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

    /// The request body's bytes, if any. A ``MultipartFormData`` body is ``multipartBody``
    /// instead, and a file body ``bodyFile``, since they are streamed rather than held here.
    ///
    /// Read-only: set a body with ``with(body:)-(Data?)`` or its siblings for a ``FormBody``,
    /// a ``MultipartFormData`` and a file, which keep the body, the streamed body and the
    /// `Content-Type` in step.
    public internal(set) var body: Data?

    /// A body streamed when the request is sent: a multipart form or a file, read as it goes
    /// and sent anew on every retry and 307/308 hop. When it is set, ``body`` is not sent.
    var streamedBody: StreamedBody? = nil

    /// The `multipart/form-data` body set with ``with(body:)-(MultipartFormData)``, which
    /// clears ``body``; streamed when the request is sent.
    public var multipartBody: MultipartFormData? {
        if case .multipart(let form) = streamedBody { form } else { nil }
    }

    /// The file whose contents are the body, set with
    /// ``with(bodyFromFileAt:contentType:)``, which clears ``body``; streamed when the request
    /// is sent.
    public var bodyFile: URL? {
        if case .file(let url) = streamedBody { url } else { nil }
    }

    /// How long the request may wait for data, in seconds; `nil` leaves the session's
    /// default. It must be positive and finite, or ``urlRequest()`` throws.
    public var timeout: TimeInterval?
    /// The most bytes of response body, after content decoding, to keep for this endpoint, or
    /// `nil` for the transport's ``TransportPolicy/maximumResponseSize`` (64 MiB by default).
    /// Sent through ``networking(from:)`` or `URLSession.request(_:)`, a larger body is cancelled
    /// while it arrives and fails with ``TransportError/responseTooLarge(limit:url:)``.
    public var maximumResponseSize: Int? = nil

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

    /// Creates an endpoint at a path below a base URL.
    ///
    /// ```swift
    /// let shop = URL(string: "https://api.example.com/v1")!
    /// Endpoint(baseURL: shop, path: "/products/7").url    // https://api.example.com/v1/products/7
    /// ```
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - baseURL: The URL the path is joined to, with exactly one `/`; it may carry a path
    ///     prefix such as `/v1`.
    ///   - path: The path as raw text, split on `/`; see ``path``. To put a `/` inside a
    ///     segment, use ``appending(pathComponents:)``.
    ///   - queryItems: The query items as raw text; see ``queryItems``.
    ///   - headers: The header fields.
    ///   - timeout: The request's timeout in seconds, or `nil` for the session's.
    public init(
        method: HTTPMethod = .get,
        baseURL: URL,
        path: String = "",
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        timeout: TimeInterval? = nil
    ) {
        self.init(
            method: method, destination: .baseURL(baseURL), path: path,
            queryItems: queryItems, headers: headers, timeout: timeout
        )
    }

    /// Creates an endpoint from its parts, in the same order as ``init(method:baseURL:path:queryItems:headers:timeout:)``.
    ///
    /// ```swift
    /// Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: 8080), path: "/health").url
    /// // http://127.0.0.1:8080/health
    /// ```
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - destination: Where the URL starts: a base URL, or a scheme, host and port.
    ///   - path: The path as raw text, split on `/`; see ``path``. To put a `/` inside a
    ///     segment, use ``appending(pathComponents:)``.
    ///   - queryItems: The query items as raw text; see ``queryItems``.
    ///   - headers: The header fields.
    ///   - timeout: The request's timeout in seconds, or `nil` for the session's.
    public init(
        method: HTTPMethod = .get,
        destination: Destination,
        path: String = "",
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.destination = destination
        self.pathComponents = Self.components(ofPath: path)
        self.queryItems = queryItems
        self.headers = headers
        self.timeout = timeout
    }

    /// Splits raw path text into segments: an optional leading `/`, then one segment per `/`.
    static func components(ofPath path: String) -> [String] {
        guard !path.isEmpty else { return [] }
        let relative = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}
