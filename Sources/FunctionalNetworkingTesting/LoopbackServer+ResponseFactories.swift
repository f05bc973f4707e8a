import Foundation

extension LoopbackServer.Response {
    /// A response with a JSON body given as text, and `Content-Type: application/json`.
    ///
    /// ```swift
    /// server.enqueue(.json(#"{"name": "Ada"}"#, status: 201))
    /// ```
    ///
    /// - Parameters:
    ///   - json: The body, already encoded as JSON text (sent as UTF-8).
    ///   - status: The status code. Defaults to `200`.
    ///   - headers: Extra header fields, sent after `Content-Type`.
    /// - Returns: The response.
    public static func json(_ json: String, status: Int = 200, headers: [LoopbackServer.Header] = []) -> Self {
        Self(
            status: status,
            headers: [.init("Content-Type", "application/json")] + headers,
            body: Data(json.utf8)
        )
    }

    /// A response whose body is `value` encoded as JSON, with `Content-Type: application/json`.
    ///
    /// ```swift
    /// struct User: Encodable { let id: Int }
    /// server.enqueue(try .json(User(id: 7)))
    /// ```
    ///
    /// A `String` argument picks ``json(_:status:headers:)`` instead, which sends the
    /// text as it is.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - status: The status code. Defaults to `200`.
    ///   - headers: Extra header fields, sent after `Content-Type`.
    ///   - encoder: The encoder to use. Defaults to a plain `JSONEncoder`.
    /// - Returns: The response.
    /// - Throws: Whatever `encoder` throws for `value`.
    public static func json<Value: Encodable>(
        _ value: Value,
        status: Int = 200,
        headers: [LoopbackServer.Header] = [],
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> Self {
        Self(
            status: status,
            headers: [.init("Content-Type", "application/json")] + headers,
            body: try encoder.encode(value)
        )
    }

    /// A response with a UTF-8 text body and `Content-Type: text/plain; charset=utf-8`.
    ///
    /// ```swift
    /// server.enqueue(.text("hello"))
    /// server.enqueue(.text("gone", status: 410))
    /// ```
    ///
    /// - Parameters:
    ///   - text: The body text.
    ///   - status: The status code. Defaults to `200`.
    ///   - headers: Extra header fields, sent after `Content-Type`.
    /// - Returns: The response.
    public static func text(_ text: String, status: Int = 200, headers: [LoopbackServer.Header] = []) -> Self {
        Self(
            status: status,
            headers: [.init("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Data(text.utf8)
        )
    }

    /// A response with only a status code and an empty body.
    ///
    /// ```swift
    /// server.enqueue(.status(204))
    /// ```
    ///
    /// - Parameter status: The status code.
    /// - Returns: The response.
    public static func status(_ status: Int) -> Self {
        Self(status: status)
    }

    /// A redirect to `location`, with a `Location` header and an empty body.
    ///
    /// ```swift
    /// server.enqueue(.redirect(to: server.url(for: "/new")))
    /// ```
    ///
    /// - Parameters:
    ///   - location: Where the client should go next.
    ///   - status: The redirect status, e.g. `301`, `302`, `303`, `307`, `308`. Defaults to `302`.
    /// - Returns: The response.
    public static func redirect(to location: URL, status: Int = 302) -> Self {
        redirect(to: location.absoluteString, status: status)
    }

    /// A redirect to `location`, which may be absolute or relative (e.g. `"/login"`).
    ///
    /// - Parameters:
    ///   - location: The `Location` header value.
    ///   - status: The redirect status. Defaults to `302`.
    /// - Returns: The response.
    public static func redirect(to location: String, status: Int = 302) -> Self {
        Self(status: status, headers: [.init("Location", location)])
    }

    /// A response that only misbehaves: see ``LoopbackServer/Fault``.
    ///
    /// ```swift
    /// server.enqueue(.fault(.closeAfterRequest))
    /// ```
    ///
    /// - Parameter fault: The misbehaviour.
    /// - Returns: A `200` response with an empty body carrying `fault`.
    public static func fault(_ fault: LoopbackServer.Fault) -> Self {
        Self(fault: fault)
    }
}
