import Foundation
import FunctionalNetworking

extension Endpoint {
    /// A copy of this endpoint with the headers written in the builder merged in: for each
    /// name written, its fields replace the endpoint's fields of that name (as the core's
    /// `HTTPHeaders.merging(_:)` does); other fields stay.
    ///
    /// ```swift
    /// let endpoint = Endpoint.get("products", id, from: shop)
    ///     .headers {
    ///         Header.accept("application/json")
    ///         if let token { Header.authorization(bearer: token) }
    ///     }
    /// ```
    ///
    /// Values are checked when the request is made: a value with CR, LF or NUL makes
    /// `urlRequest()` (and so every networking function) fail with
    /// `Endpoint.Error.invalidHeader(name:)` before anything is sent.
    ///
    /// - Parameter content: The fields, one per line, with control flow; see
    ///   ``HeadersBuilder``.
    /// - Returns: The changed copy.
    public func headers(@HeadersBuilder _ content: () -> HTTPHeaders) -> Endpoint {
        var copy = self
        copy.headers = copy.headers.merging(content())
        return copy
    }

    /// A copy of this endpoint with the query items written in the builder added after the
    /// current ones (as the core's `adding(queryItems:)` does: nothing is replaced, names may
    /// repeat).
    ///
    /// ```swift
    /// let endpoint = Endpoint.get("products", from: shop)
    ///     .queryItems {
    ///         Query("q", text)
    ///         Query("page", 2)
    ///         Query("category", category)   // left out when nil
    ///     }
    /// ```
    ///
    /// - Parameter content: The items, one per line, with control flow; see
    ///   ``QueryItemsBuilder``.
    /// - Returns: The changed copy.
    public func queryItems(@QueryItemsBuilder _ content: () -> [URLQueryItem]) -> Endpoint {
        adding(queryItems: content())
    }

    /// A copy of this endpoint whose body is the JSON object written in the builder, with
    /// `Content-Type: application/json` unless a `Content-Type` is already set.
    ///
    /// ```swift
    /// let endpoint = try Endpoint.post("products", id, "reviews", from: shop)
    ///     .body {
    ///         Key("rating", 5)
    ///         Key("tags", ["fast", "cheap"])
    ///         Key("author") {
    ///             Key("name", "Ada")
    ///         }
    ///     }
    /// ```
    ///
    /// The current body, if any, is replaced. This is the core's `with(jsonBody:encoder:)`
    /// with the object written key by key, as SwiftyNetworking writes a body; a value that
    /// already exists as an `Encodable` model is sent with `with(jsonBody:)` itself.
    ///
    /// - Parameters:
    ///   - encoder: The encoder for the values; a plain `JSONEncoder` by default.
    ///   - content: The object's keys, one per line, with control flow; see ``JSONBody``.
    /// - Returns: The changed copy.
    /// - Throws: `BodyError.notEncodable(type:reason:)`, with the type `JSONBody`, when a
    ///   value cannot be encoded.
    public func body(
        encoder: JSONEncoder = JSONEncoder(),
        @JSONBodyBuilder _ content: () -> [Key]
    ) throws(BodyError) -> Endpoint {
        try with(jsonBody: JSONBody(content), encoder: encoder)
    }
}
