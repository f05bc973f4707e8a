import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response whose status code was not acceptable (by default, not 2xx).
///
/// It carries everything the server said, so that callers can act on it:
///
/// ```swift
/// do {
///     let product = try await networking(.product(withID: 7)).decoded(as: Product.self).value
///     show(product.name)
/// } catch let error as HTTPStatusError where error.status == 404 {
///     showNotFound()
/// } catch let error as HTTPStatusError {
///     let problem = try? error.decodedBody(as: Problem.self)
///     show(problem?.message ?? error.description)
/// }
/// ```
public struct HTTPStatusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code, such as 404.
    public let status: Int
    /// The response's headers.
    public let headers: HTTPHeaders
    /// The response's body, often an error document.
    public let body: Data
    /// The URL of the response, if known.
    public let url: URL?
    /// How many attempts were made before this answer: 1 unless ``Composer/retry(_:clock:)``
    /// made more, and then the description says so ("… after 3 attempts").
    public internal(set) var attempts = 1
    /// The redirect to another origin that dropped the request's credentials before this 401
    /// or 403 answered, if one did; the description then says so and how to allow it.
    public internal(set) var credentialsDroppedByRedirect: CredentialsDroppedByRedirect?

    /// Creates the error for a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// Creates the error from an `HTTPURLResponse` and its body.
    public init(response: HTTPURLResponse, body: Data) {
        self.init(status: response.statusCode, headers: HTTPHeaders(response: response), body: body, url: response.url)
    }

    /// Decodes the body into the server's error model: the one way to read an error document,
    /// whichever networking function the error came from.
    ///
    /// ```swift
    /// struct Problem: Decodable { let message: String }
    /// let problem = try error.decodedBody(as: Problem.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The error model's type; inferred from the context when left out.
    ///   - decoder: The decoder; a default `JSONDecoder` when left out.
    /// - Throws: ``DecodingFailure`` when the body is not a `Model`, naming the response's
    ///   `Content-Type` as every decoding failure does.
    public func decodedBody<Model: Decodable>(
        as type: Model.Type = Model.self,
        using decoder: JSONDecoder = JSONDecoder()
    ) throws -> Model {
        try DecodingFailure.decode(type, from: body, using: decoder, contentType: headers["Content-Type"], url: url)
    }

    /// Says what happened in words: the status, its meaning and where (the URL as
    /// ``Redaction/default`` shows it, with its user, password and secret query values
    /// hidden), and the first 200 bytes of the body, with the values
    /// of secret-named JSON members and form fields hidden (`"refresh_token":"<redacted>"`;
    /// the names are ``Redaction/defaultQueryItemNames``); how many attempts were made when
    /// more than one; and for a 401 or 403, a redirect that dropped the credentials.
    ///
    /// ```text
    /// The server answered 503 (Service Unavailable) for https://shop.test/items after 3 attempts.
    /// ```
    public var description: String {
        let meaning = HTTPURLResponse.localizedString(forStatusCode: status)
        var text = "The server answered \(status) (\(meaning))"
        if let url {
            text += " for \(Redaction.default.redact(url))"
        }
        if attempts > 1 {
            text += " after \(attempts) attempts"
        }
        text += "."
        if let credentialsDroppedByRedirect {
            text += " " + credentialsDroppedByRedirect.description
        }
        if !body.isEmpty {
            text += " Body: \(RedactBody.preview(of: body, limit: 200))"
        }
        return text
    }

    /// The status codes accepted by default: 200–299.
    public static let successStatuses = 200..<300

    /// Throws when `response` is an HTTP response whose status is not in `acceptable`.
    ///
    /// - Throws: ``HTTPStatusError`` with the status, headers and `data`.
    static func check(
        _ response: URLResponse,
        data: Data,
        acceptable: some RangeExpression<Int> = successStatuses
    ) throws {
        guard let http = response as? HTTPURLResponse, !acceptable.contains(http.statusCode) else {
            return
        }
        throw HTTPStatusError(response: http, body: data)
    }
}

extension HTTPStatusError: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}

extension HTTPStatusError: CustomDebugStringConvertible, CustomReflectable {
    /// The same words as ``description``: no secret header value, no secret in the body.
    public var debugDescription: String { description }

    /// What `dump` and the debugger show: the status, the headers with secret values
    /// (`Set-Cookie`, `Authorization`, the API-key headers…) redacted by ``Redaction/default``,
    /// the body's size and its preview with secret fields hidden, the redacted URL, the attempts
    /// and any dropped credentials.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "status": status,
                "headers": Redaction.default.redact(headers).map { "\($0.name): \($0.value)" },
                "body": "\(body.count) bytes: \(RedactBody.preview(of: body, limit: 200))",
                "url": url.map { Redaction.default.redact($0) } as Any,
                "attempts": attempts,
                "credentialsDroppedByRedirect": credentialsDroppedByRedirect as Any,
            ],
            displayStyle: .struct
        )
    }
}
