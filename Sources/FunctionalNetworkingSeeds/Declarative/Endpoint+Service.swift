import Foundation
import FunctionalNetworking

extension Endpoint {
    /// Creates an endpoint on `service` whose path is made of values, each one segment.
    ///
    /// ```swift
    /// let endpoint = Endpoint(.get, "products", id, "reviews", from: shop)
    /// // GET https://api.example.com/v1/products/7/reviews, with the shop's default headers
    /// ```
    ///
    /// Each value's `description` is one raw segment, percent-encoded on its own when the URL
    /// is made: a `/` inside a value is encoded as `%2F` and never separates segments, a space
    /// as `%20`, and non-ASCII text as UTF-8 (`"café"` → `caf%C3%A9`). So the server sees the
    /// value itself as one segment. An empty value gives an empty segment. An array is one
    /// value too (its `description`, `["a", "b"]`, would be one segment): for a list of
    /// segments use ``init(_:pathComponents:from:)``.
    ///
    /// The endpoint starts at the service's ``Service/destination``, below its
    /// ``Service/pathComponents``, with its ``Service/defaultHeaders``; headers set on the
    /// endpoint afterwards replace defaults of the same name.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - pathComponents: The segments: strings, numbers, `UUID`s, any `CustomStringConvertible`.
    ///   - service: The service the endpoint belongs to.
    public init(_ method: HTTPMethod, _ pathComponents: any CustomStringConvertible..., from service: Service) {
        self = service.endpoint(method: method, pathComponents: pathComponents)
    }

    /// Creates an endpoint on `service` whose path segments are the values in a list, for
    /// paths built at run time.
    ///
    /// ```swift
    /// Endpoint(.get, pathComponents: ["files"] + folders, from: storage)
    /// ```
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - pathComponents: The segments, each value's `description` one raw segment.
    ///   - service: The service the endpoint belongs to.
    public init(_ method: HTTPMethod, pathComponents: [any CustomStringConvertible], from service: Service) {
        self = service.endpoint(method: method, pathComponents: pathComponents)
    }

    /// A `GET` endpoint on `service`; each value is one path segment.
    ///
    /// ```swift
    /// let reviews = Endpoint.get("products", id, "reviews", from: shop)
    ///     .queryItems { Query("page", 2) }
    /// ```
    ///
    /// - Parameters:
    ///   - pathComponents: The segments; see ``init(_:_:from:)``.
    ///   - service: The service the endpoint belongs to.
    /// - Returns: The endpoint.
    public static func get(_ pathComponents: any CustomStringConvertible..., from service: Service) -> Endpoint {
        service.endpoint(method: .get, pathComponents: pathComponents)
    }

    /// A `POST` endpoint on `service`; each value is one path segment.
    ///
    /// ```swift
    /// let create = try Endpoint.post("products", from: shop).with(jsonBody: newProduct)
    /// ```
    ///
    /// - Parameters:
    ///   - pathComponents: The segments; see ``init(_:_:from:)``.
    ///   - service: The service the endpoint belongs to.
    /// - Returns: The endpoint.
    public static func post(_ pathComponents: any CustomStringConvertible..., from service: Service) -> Endpoint {
        service.endpoint(method: .post, pathComponents: pathComponents)
    }

    /// A `PUT` endpoint on `service`; each value is one path segment.
    ///
    /// - Parameters:
    ///   - pathComponents: The segments; see ``init(_:_:from:)``.
    ///   - service: The service the endpoint belongs to.
    /// - Returns: The endpoint.
    public static func put(_ pathComponents: any CustomStringConvertible..., from service: Service) -> Endpoint {
        service.endpoint(method: .put, pathComponents: pathComponents)
    }

    /// A `PATCH` endpoint on `service`; each value is one path segment.
    ///
    /// - Parameters:
    ///   - pathComponents: The segments; see ``init(_:_:from:)``.
    ///   - service: The service the endpoint belongs to.
    /// - Returns: The endpoint.
    public static func patch(_ pathComponents: any CustomStringConvertible..., from service: Service) -> Endpoint {
        service.endpoint(method: .patch, pathComponents: pathComponents)
    }

    /// A `DELETE` endpoint on `service`; each value is one path segment.
    ///
    /// - Parameters:
    ///   - pathComponents: The segments; see ``init(_:_:from:)``.
    ///   - service: The service the endpoint belongs to.
    /// - Returns: The endpoint.
    public static func delete(_ pathComponents: any CustomStringConvertible..., from service: Service) -> Endpoint {
        service.endpoint(method: .delete, pathComponents: pathComponents)
    }

    /// A `HEAD` endpoint on `service`; each value is one path segment.
    ///
    /// - Parameters:
    ///   - pathComponents: The segments; see ``init(_:_:from:)``.
    ///   - service: The service the endpoint belongs to.
    /// - Returns: The endpoint.
    public static func head(_ pathComponents: any CustomStringConvertible..., from service: Service) -> Endpoint {
        service.endpoint(method: .head, pathComponents: pathComponents)
    }
}
