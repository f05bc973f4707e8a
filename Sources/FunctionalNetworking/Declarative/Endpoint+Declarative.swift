import Foundation

extension Endpoint {
    /// A copy of this endpoint with the headers written in the builder merged in: for each
    /// name written, its fields replace the endpoint's fields of that name (see
    /// ``merging(headers:)``); other fields stay.
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
    /// ``urlRequest()`` (and so every networking function) fail with
    /// ``Error/invalidHeader(name:)`` before anything is sent.
    ///
    /// - Parameter content: The fields, one per line, with control flow; see
    ///   ``HeadersBuilder``.
    /// - Returns: The changed copy.
    public func headers(@HeadersBuilder _ content: () -> HTTPHeaders) -> Endpoint {
        merging(headers: content())
    }

    /// A copy of this endpoint with the query items written in the builder added after the
    /// current ones (as ``adding(queryItems:)`` does: nothing is replaced, names may repeat).
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

    /// A copy of this endpoint whose body is `value` encoded as JSON, with
    /// `Content-Type: application/json` unless a `Content-Type` is already set.
    ///
    /// ```swift
    /// let endpoint = try Endpoint.post("products", from: shop).body(json: product)
    /// ```
    ///
    /// Encoding happens here, so a value the encoder refuses (say a `Double.nan` with the
    /// default encoder) is reported at once, with its type and the reason, and no endpoint
    /// carrying a half-made body ever exists. This is the one declarative modifier that
    /// throws; headers, query items and path components never do.
    ///
    /// - Parameters:
    ///   - value: The value to send; anything `Encodable`, a ``JSONBody`` included.
    ///   - encoder: The encoder; a plain `JSONEncoder` by default.
    /// - Returns: The changed copy.
    /// - Throws: ``DeclarativeError/bodyNotEncodable(type:reason:)`` when `value` cannot be
    ///   encoded.
    public func body<Value: Encodable>(
        json value: Value,
        encoder: JSONEncoder = JSONEncoder()
    ) throws(DeclarativeError) -> Endpoint {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw DeclarativeError.bodyNotEncodable(Value.self, error: error)
        }
        return withJSONBody(data)
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
    /// The current body, if any, is replaced.
    ///
    /// - Parameters:
    ///   - encoder: The encoder for the values; a plain `JSONEncoder` by default.
    ///   - content: The object's keys, one per line, with control flow; see ``JSONBody``.
    /// - Returns: The changed copy.
    /// - Throws: ``DeclarativeError/bodyNotEncodable(type:reason:)`` when a value cannot be
    ///   encoded.
    public func body(
        encoder: JSONEncoder = JSONEncoder(),
        @JSONBodyBuilder _ content: () -> [Key]
    ) throws(DeclarativeError) -> Endpoint {
        withJSONBody(try JSONBody(content).encoded(using: encoder))
    }

    /// This endpoint with `data` as its body, marked as JSON unless a type is set.
    private func withJSONBody(_ data: Data) -> Endpoint {
        var copy = with(body: data)
        if !copy.headers.contains("Content-Type") {
            copy.headers["Content-Type"] = "application/json"
        }
        return copy
    }
}
