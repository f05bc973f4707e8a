import Foundation

extension Endpoint {
    /// A copy of this endpoint with another method.
    ///
    /// ```swift
    /// let delete = Endpoint.product(withID: id).with(method: .delete)
    /// ```
    ///
    /// - Parameter method: The request method.
    /// - Returns: The changed copy.
    public func with(method: HTTPMethod) -> Endpoint {
        var copy = self
        copy.method = method
        return copy
    }

    /// A copy of this endpoint with another body (or none).
    ///
    /// Setting a body is always a `with(body:)` call, one per kind of body: bytes (here), a
    /// ``FormBody``, a ``MultipartFormData``, or a file with
    /// ``with(bodyFromFileAt:contentType:)``. Each replaces whatever body was set before.
    ///
    /// ```swift
    /// let rename = Endpoint(method: .patch, baseURL: shop, path: "/products/7")
    ///     .with(body: Data(#"{"name":"Lamp"}"#.utf8))
    ///     .setting(header: "Content-Type", to: "application/json")
    /// ```
    ///
    /// - Parameter body: The request body, or `nil` for none.
    /// - Returns: The changed copy.
    public func with(body: Data?) -> Endpoint {
        var copy = self
        copy.body = body
        copy.streamedBody = nil
        return copy
    }

    /// A copy of this endpoint with a form-encoded body and its `Content-Type`.
    ///
    /// ```swift
    /// let signIn = Endpoint(method: .post, baseURL: auth, path: "/token")
    ///     .with(body: ["grant_type": "password", "username": "ada", "password": secret] as FormBody)
    /// ```
    ///
    /// - Parameter body: The fields.
    /// - Returns: The changed copy.
    public func with(body: FormBody) -> Endpoint {
        with(body: body.encoded).setting(header: "Content-Type", to: FormBody.contentType)
    }

    /// A copy of this endpoint with a `multipart/form-data` body, streamed when sent, and its
    /// `Content-Type` (with the boundary).
    ///
    /// ```swift
    /// var form = MultipartFormData()
    /// form.append("Holiday", named: "title")
    /// form.appendFile(at: photoURL, named: "photo", contentType: "image/jpeg")
    /// let upload = Endpoint(method: .post, baseURL: shop, path: "/photos").with(body: form)
    /// ```
    ///
    /// A file that is missing or unreadable when the request is sent fails it with
    /// ``BodyError/unreadableFile(_:reason:)`` before anything reaches the server.
    ///
    /// The streamed body goes with chunked transfer coding; for a server that requires
    /// `Content-Length`, set the form's bytes instead (which reads its files into memory):
    /// `.with(body: try form.encoded()).setting(header: "Content-Type", to: form.contentType)`.
    ///
    /// - Parameter body: The form.
    /// - Returns: The changed copy.
    public func with(body: MultipartFormData) -> Endpoint {
        var copy = with(body: nil).setting(header: "Content-Type", to: body.contentType)
        copy.streamedBody = .multipart(body)
        return copy
    }

    /// A copy of this endpoint whose body is the contents of the file at `url`, streamed from
    /// disk when sent (never held in memory), with `contentType`.
    ///
    /// ```swift
    /// let upload = Endpoint(method: .put, baseURL: storage, path: "/backups/today.tar")
    ///     .with(bodyFromFileAt: archiveURL, contentType: "application/x-tar")
    /// ```
    ///
    /// A file that is missing or unreadable when the request is sent fails it with
    /// ``BodyError/unreadableFile(_:reason:)`` before anything reaches the server.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - contentType: The body's media type.
    /// - Returns: The changed copy.
    public func with(bodyFromFileAt url: URL, contentType: String = "application/octet-stream") -> Endpoint {
        var copy = with(body: nil).setting(header: "Content-Type", to: contentType)
        copy.streamedBody = .file(url)
        return copy
    }

    /// A copy of this endpoint with another timeout.
    ///
    /// - Parameter timeout: The timeout in seconds (positive and finite), or `nil` for the
    ///   session's.
    /// - Returns: The changed copy.
    public func with(timeout: TimeInterval?) -> Endpoint {
        var copy = self
        copy.timeout = timeout
        return copy
    }

    /// A copy of this endpoint that keeps at most `maximumResponseSize` bytes of response body,
    /// or the transport's limit for `nil`.
    ///
    /// ```swift
    /// let export = Endpoint(baseURL: shop, path: "/reports/2026.csv")
    ///     .with(maximumResponseSize: 512 * 1_048_576)   // this one may reach 512 MiB
    /// ```
    ///
    /// - Parameter maximumResponseSize: The most decoded body bytes to keep, or `nil`.
    /// - Returns: The changed copy.
    public func with(maximumResponseSize: Int?) -> Endpoint {
        var copy = self
        copy.maximumResponseSize = maximumResponseSize.map { max(0, $0) }
        return copy
    }

    /// A copy of this endpoint with raw path text appended, split on `/` as ``path`` is.
    ///
    /// A trailing slash on the current path is not doubled:
    ///
    /// ```swift
    /// Endpoint(baseURL: shop, path: "/products/").appending(path: "7/reviews").path
    /// // "/products/7/reviews"
    /// ```
    ///
    /// - Parameter path: The path to append; a leading `/` is optional.
    /// - Returns: The changed copy.
    public func appending(path: String) -> Endpoint {
        appending(pathComponents: Self.components(ofPath: path))
    }

    /// A copy of this endpoint with path segments appended, each one a value in which `/` is
    /// encoded. A trailing slash on the current path (a last segment `""`) is replaced by the
    /// first new segment.
    ///
    /// - Parameter pathComponents: The segments as raw text.
    /// - Returns: The changed copy.
    public func appending(pathComponents: [String]) -> Endpoint {
        guard !pathComponents.isEmpty else { return self }
        var copy = self
        if copy.pathComponents.last == "" {
            copy.pathComponents.removeLast()
        }
        copy.pathComponents.append(contentsOf: pathComponents)
        return copy
    }

    /// A copy of this endpoint with query items added after the current ones.
    ///
    /// - Parameter queryItems: The items as raw text.
    /// - Returns: The changed copy.
    public func adding(queryItems: [URLQueryItem]) -> Endpoint {
        var copy = self
        copy.queryItems.append(contentsOf: queryItems)
        return copy
    }

    /// A copy of this endpoint with one query item added after the current ones.
    ///
    /// ```swift
    /// Endpoint.search(for: "ipad").adding(queryItem: "page", value: "2")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The item's name as raw text.
    ///   - value: The item's value as raw text, or `nil` for a name with no `=`.
    /// - Returns: The changed copy.
    public func adding(queryItem name: String, value: String?) -> Endpoint {
        adding(queryItems: [URLQueryItem(name: name, value: value)])
    }

    /// A copy of this endpoint with a header set: every field of that name (ignoring case) is
    /// replaced by one, or removed when `value` is `nil`.
    ///
    /// ```swift
    /// endpoint.setting(header: "Authorization", to: "Bearer \(token)")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value, or `nil` to remove the field.
    /// - Returns: The changed copy.
    public func setting(header name: String, to value: String?) -> Endpoint {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// A copy of this endpoint with a header field added, keeping any of the same name.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    /// - Returns: The changed copy.
    public func adding(header name: String, value: String) -> Endpoint {
        var copy = self
        copy.headers.add(name: name, value: value)
        return copy
    }

    /// A copy of this endpoint whose body is `value` encoded as JSON, with
    /// `Content-Type: application/json` unless a `Content-Type` is already set.
    ///
    /// ```swift
    /// let create = try Endpoint(method: .post, baseURL: shop, path: "/products")
    ///     .with(jsonBody: NewProduct(name: "iPad Pro", price: 999))
    /// ```
    ///
    /// The value is encoded here, so a value the encoder refuses (a `Double.nan` with the
    /// default encoder, say) is reported at once, with its type and the reason in words, and
    /// no endpoint carrying a half-made body ever exists. The current body, if any, is
    /// replaced.
    ///
    /// - Parameters:
    ///   - value: The value to send; anything `Encodable`.
    ///   - encoder: The encoder, with its strategies (dates, keys, non-conforming floats); a
    ///     plain `JSONEncoder` by default.
    /// - Returns: The changed copy.
    /// - Throws: ``BodyError/notEncodable(type:reason:)`` when `value` cannot be encoded.
    public func with<Value: Encodable>(
        jsonBody value: Value,
        encoder: JSONEncoder = JSONEncoder()
    ) throws(BodyError) -> Endpoint {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw BodyError.notEncodable(Value.self, error: error)
        }
        var copy = with(body: data)
        if !copy.headers.contains("Content-Type") {
            copy.headers["Content-Type"] = "application/json"
        }
        return copy
    }
}

extension BodyError {
    /// The error for `error`, thrown while encoding a value of type `Body` as JSON: the type
    /// and the encoder's reason with the coding path, never the value.
    fileprivate static func notEncodable<Body>(_ body: Body.Type, error: any Error) -> BodyError {
        let reason: String
        switch error {
        case EncodingError.invalidValue(let value, let context):
            let path = context.codingPath.isEmpty ? "the top level" : DecodingFailure.render(context.codingPath).debugDescription
            reason = "the \(type(of: value)) value at \(path) is invalid: " + context.debugDescription
        default:
            reason = String(describing: error)
        }
        return .notEncodable(type: String(describing: body), reason: reason)
    }
}
