import Foundation
import FunctionalNetworking
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server your app talks to: where its endpoints start, the headers every endpoint gets,
/// and hooks that run before each request and after each response.
///
/// Make endpoints *from* a service, so they start at its base URL and carry its default
/// headers, and send them with the service's ``networking(using:)``, which runs its hooks:
///
/// ```swift
/// let shop = Service(baseURL: URL(string: "https://api.example.com/v1")!)
///     .headers {
///         Header.accept("application/json")
///         Header.userAgent("Shop/2.1")
///     }
///     .adding(beforeEach: { endpoint in
///         endpoint.setting(header: "X-Request-ID", to: UUID().uuidString)
///     })
///     .adding(afterEach: { data, response in
///         guard (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Shop") != nil else {
///             throw ShopError.notTheShop
///         }
///         return (data, response)
///     })
///
/// let networking = shop.networking(using: URLSession.shared.transport)
/// let product: Product = try await networking(.get("products", 7, from: shop)).decoded().value
/// ```
///
/// ## Defaults and hooks, and when they apply
///
/// - **Default headers** are copied into an endpoint when it is made `from:` the service
///   (``FunctionalNetworking/Endpoint/init(_:_:from:)``, ``FunctionalNetworking/Endpoint/get(_:from:)``…). The endpoint's own headers,
///   set afterwards, replace a default of the same name, and `Endpoint.headers` shows
///   exactly what will be sent. ``networking(using:)`` does *not* add them again, so an
///   endpoint made for another server never picks up this service's credentials.
/// - **`beforeEach`** runs in ``networking(using:)`` on every endpoint sent through it, before
///   its request is made; the request is then checked as usual (`Endpoint.urlRequest()`),
///   so a hook cannot put a malformed header on the wire either.
/// - **`afterEach`** runs in ``networking(using:)`` on every response the transport returns,
///   *before* `networking(from:)` checks the status: it may return the data and response as
///   they are, transform them, or throw to reject the response (the future then fails with that
///   error). A transport with `.validatingStatus()` throws for a status it refuses before
///   `afterEach` sees it: to see every status, pass a transport without it.
///
/// ## Stacking services
///
/// A service is a value; the modifiers return a derived one, like swift-networking's
/// `Server`. A derived service keeps its parent's defaults and hooks and adds its own:
///
/// ```swift
/// let admin = shop
///     .appending(pathComponents: "admin")              // https://api.example.com/v1/admin/…
///     .headers { Header.authorization(bearer: adminToken) }
///     .adding(beforeEach: { $0.setting(header: "X-Role", to: "admin") })
/// ```
public struct Service: Sendable {
    /// Where every endpoint's URL starts.
    public var destination: Endpoint.Destination
    /// Path segments put before every endpoint's own, as raw text; empty by default.
    public var pathComponents: [String]
    /// The header fields every endpoint made from this service starts with.
    public var defaultHeaders: HTTPHeaders
    /// Changes every endpoint sent through ``networking(using:)``, before its request is
    /// made; returns the endpoint unchanged by default.
    public var beforeEach: @Sendable (Endpoint) -> Endpoint
    /// Sees every response received through ``networking(using:)``, before its status is
    /// checked; returns what is to be used instead, or throws to reject it. Passes the
    /// response on unchanged by default.
    public var afterEach: @Sendable (Data, URLResponse) throws -> (Data, URLResponse)

    /// Creates a service at a base URL.
    ///
    /// ```swift
    /// let shop = Service(baseURL: URL(string: "https://api.example.com/v1")!,
    ///                    defaultHeaders: ["Accept": "application/json"])
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The URL every endpoint's path is joined to; it may carry a path prefix
    ///     such as `/v1` (see `Endpoint.Destination.baseURL(_:)`).
    ///   - defaultHeaders: The fields every endpoint starts with.
    ///   - beforeEach: Changes every endpoint before it is sent.
    ///   - afterEach: Checks or changes every response; throw to reject one.
    public init(
        baseURL: URL,
        defaultHeaders: HTTPHeaders = [:],
        beforeEach: @escaping @Sendable (Endpoint) -> Endpoint = { $0 },
        afterEach: @escaping @Sendable (Data, URLResponse) throws -> (Data, URLResponse) = { ($0, $1) }
    ) {
        self.init(
            destination: .baseURL(baseURL), defaultHeaders: defaultHeaders,
            beforeEach: beforeEach, afterEach: afterEach
        )
    }

    /// Creates a service at any destination, with an optional path prefix.
    ///
    /// ```swift
    /// let local = Service(destination: .server(scheme: "http", host: "127.0.0.1", port: 8080))
    /// ```
    ///
    /// - Parameters:
    ///   - destination: Where every endpoint's URL starts.
    ///   - pathComponents: Segments put before every endpoint's own, as raw text.
    ///   - defaultHeaders: The fields every endpoint starts with.
    ///   - beforeEach: Changes every endpoint before it is sent.
    ///   - afterEach: Checks or changes every response; throw to reject one.
    public init(
        destination: Endpoint.Destination,
        pathComponents: [String] = [],
        defaultHeaders: HTTPHeaders = [:],
        beforeEach: @escaping @Sendable (Endpoint) -> Endpoint = { $0 },
        afterEach: @escaping @Sendable (Data, URLResponse) throws -> (Data, URLResponse) = { ($0, $1) }
    ) {
        self.destination = destination
        self.pathComponents = pathComponents
        self.defaultHeaders = defaultHeaders
        self.beforeEach = beforeEach
        self.afterEach = afterEach
    }

    /// A derived service whose default headers are these ones with the fields written in the
    /// builder merged in (a name written replaces the parent's fields of that name).
    ///
    /// ```swift
    /// let signedIn = shop.headers { Header.authorization(bearer: token) }
    /// ```
    ///
    /// - Parameter content: The fields, one per line, with control flow; see
    ///   ``HeadersBuilder``.
    /// - Returns: The derived service.
    public func headers(@HeadersBuilder _ content: () -> HTTPHeaders) -> Service {
        var copy = self
        copy.defaultHeaders = defaultHeaders.merging(content())
        return copy
    }

    /// A derived service whose endpoints start below these path segments, each one a value
    /// (a `/` inside one is encoded as `%2F`).
    ///
    /// ```swift
    /// let store = shop.appending(pathComponents: "stores", storeID)
    /// Endpoint.get("stock", from: store).path   // "/stores/42/stock", below the base URL
    /// ```
    ///
    /// - Parameter pathComponents: The segments; each value's `description` is one segment.
    /// - Returns: The derived service.
    public func appending(pathComponents: any CustomStringConvertible...) -> Service {
        var copy = self
        copy.pathComponents += pathComponents.map(\.description)
        return copy
    }

    /// A derived service that runs `hook` on every endpoint after this service's own
    /// `beforeEach`.
    ///
    /// - Parameter hook: Returns the endpoint to send.
    /// - Returns: The derived service.
    public func adding(beforeEach hook: @escaping @Sendable (Endpoint) -> Endpoint) -> Service {
        var copy = self
        let first = beforeEach
        copy.beforeEach = { endpoint in hook(first(endpoint)) }
        return copy
    }

    /// A derived service that runs `hook` on every response after this service's own
    /// `afterEach` (which may already have rejected it).
    ///
    /// - Parameter hook: Returns the data and response to use; throws to reject them.
    /// - Returns: The derived service.
    public func adding(
        afterEach hook: @escaping @Sendable (Data, URLResponse) throws -> (Data, URLResponse)
    ) -> Service {
        var copy = self
        let first = afterEach
        copy.afterEach = { data, response in
            let (data, response) = try first(data, response)
            return try hook(data, response)
        }
        return copy
    }

    /// A networking function that sends endpoints through `transport` with this service's
    /// hooks: `beforeEach` on the endpoint, the request checked and made
    /// (`Endpoint.urlRequest()`), `transport`, `afterEach` on the response, then the status
    /// checked as `networking(from:)` does (2xx gives the body, anything else an
    /// `HTTPStatusError`).
    ///
    /// ```swift
    /// let networking = shop.networking(using: NetworkSession.shared.transport(with: .retry()))
    /// let reviews: [Review] = try await networking(.get("products", id, "reviews", from: shop))
    ///     .decoded().value
    /// ```
    ///
    /// Default headers are not added here; they come with endpoints made `from:` the service
    /// (see the type's discussion).
    ///
    /// - Parameter transport: The function that sends requests.
    /// - Returns: A function from endpoints to the futures of their bodies.
    public func networking(using transport: @escaping Transport) -> @Sendable (Endpoint) -> Future<Data> {
        let afterEach = afterEach
        let beforeEach = beforeEach
        let send = FunctionalNetworking.networking(from: { request in
            let (data, response) = try await transport(request)
            return try afterEach(data, response)
        })
        return { endpoint in send(beforeEach(endpoint)) }
    }

    /// A new endpoint on this service: its destination, its path segments then
    /// `pathComponents`, and its default headers.
    func endpoint(method: HTTPMethod, pathComponents: [any CustomStringConvertible]) -> Endpoint {
        Endpoint(method: method, destination: destination, headers: defaultHeaders)
            .appending(pathComponents: self.pathComponents + pathComponents.map(\.description))
    }
}
