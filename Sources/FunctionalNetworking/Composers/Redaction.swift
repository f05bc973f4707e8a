import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What is secret in a request: the one place that decides it, for logging, metrics and cURL.
///
/// ``default`` hides the values of `Authorization`, `Cookie`, `Set-Cookie` and
/// `Proxy-Authorization` (names compare case-insensitively) and the user and password of a URL.
/// Name more headers and query items to hide; their values become ``marker``:
///
/// ```swift
/// let redaction = Redaction.default.redactingHeaders("X-Api-Key").redactingQueryItems("token")
/// redaction.redact(URL(string: "https://shop.test/cart?token=s3cr3t&page=2")!)
/// // "https://shop.test/cart?token=<redacted>&page=2"
/// redaction.describe(request)
/// // GET https://shop.test/cart?token=<redacted>&page=2
/// // Authorization: <redacted>
/// // X-Api-Key: <redacted>
/// ```
///
/// Bodies are never inspected: ``describe(_:)`` gives only their size, and
/// `URLRequest.curlCommand(redaction:)` prints them as they are.
public struct Redaction: Sendable, Hashable {
    /// The headers every redaction starts from, lower-cased: `authorization`, `cookie`,
    /// `set-cookie` and `proxy-authorization`.
    public static let defaultHeaderNames: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Hides ``defaultHeaderNames`` and URL credentials; add to it with
    /// `redactingHeaders(_:)` and `redactingQueryItems(_:)`.
    public static let `default` = Redaction(headers: defaultHeaderNames)

    /// Hides nothing, not even URL credentials: for a cURL command you mean to run as is.
    public static let none = Redaction(redactsURLCredentials: false)

    /// The text that replaces a secret value, `<redacted>` unless you chose another.
    public var marker: String

    /// The names of the headers whose values are hidden, lower-cased.
    public private(set) var headerNames: Set<String>

    /// The names of the query items whose values are hidden, lower-cased (they compare
    /// case-insensitively, so `Token` and `token` are both hidden).
    public private(set) var queryItemNames: Set<String>

    /// Whether the user and password of a URL (`https://user:pass@host`) are hidden.
    public var redactsURLCredentials: Bool

    /// Creates a redaction from scratch; most code starts from ``default`` instead.
    ///
    /// - Parameters:
    ///   - headers: Header names whose values to hide (any case).
    ///   - queryItems: Query item names whose values to hide (any case).
    ///   - redactsURLCredentials: Whether to hide a URL's user and password.
    ///   - marker: The text that replaces each hidden value.
    public init(
        headers: some Sequence<String> = [String](),
        queryItems: some Sequence<String> = [String](),
        redactsURLCredentials: Bool = true,
        marker: String = "<redacted>"
    ) {
        self.marker = marker
        self.headerNames = Set(headers.map { $0.lowercased() })
        self.queryItemNames = Set(queryItems.map { $0.lowercased() })
        self.redactsURLCredentials = redactsURLCredentials
    }

    /// A copy that also hides the values of the headers called `names` (any case).
    ///
    /// ```swift
    /// let redaction = Redaction.default.redactingHeaders("X-Api-Key", "X-Session")
    /// ```
    public func redactingHeaders(_ names: String...) -> Redaction {
        redactingHeaders(names)
    }

    /// A copy that also hides the values of the headers called `names` (any case).
    public func redactingHeaders(_ names: some Sequence<String>) -> Redaction {
        var copy = self
        copy.headerNames.formUnion(names.map { $0.lowercased() })
        return copy
    }

    /// A copy that also hides the values of the query items called `names` (any case).
    ///
    /// ```swift
    /// let redaction = Redaction.default.redactingQueryItems("token", "api_key")
    /// ```
    public func redactingQueryItems(_ names: String...) -> Redaction {
        redactingQueryItems(names)
    }

    /// A copy that also hides the values of the query items called `names` (any case).
    public func redactingQueryItems(_ names: some Sequence<String>) -> Redaction {
        var copy = self
        copy.queryItemNames.formUnion(names.map { $0.lowercased() })
        return copy
    }

    /// Whether the value of the header called `name` is hidden.
    public func isSecretHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased())
    }

    /// Whether the value of the query item called `name` is hidden.
    public func isSecretQueryItem(_ name: String) -> Bool {
        queryItemNames.contains(name.lowercased())
    }

    /// `value` as it may be shown for the header `name`: itself, or ``marker``.
    public func redactedValue(_ value: String, ofHeader name: String) -> String {
        isSecretHeader(name) ? marker : value
    }

    /// The header list with every secret value replaced by ``marker``; order and names stay.
    ///
    /// ```swift
    /// Redaction.default.redact(["Authorization": "Bearer s3cr3t", "Accept": "*/*"])
    /// // Authorization: <redacted>, Accept: */*
    /// ```
    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { ($0.name, redactedValue($0.value, ofHeader: $0.name)) })
    }

    /// The header dictionary (as `URLRequest.allHTTPHeaderFields` holds it) with every secret
    /// value replaced by ``marker``.
    public func redact(_ headers: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: headers.map { ($0.key, redactedValue($0.value, ofHeader: $0.key)) })
    }

    /// The URL as text with secret query values and (unless turned off) its user and password
    /// replaced by ``marker``; everything else, fragment included, stays as written.
    ///
    /// ```swift
    /// Redaction.default.redactingQueryItems("token")
    ///     .redact(URL(string: "https://ann:pw@shop.test/a?token=s3cr3t&b=1")!)
    /// // "https://<redacted>:<redacted>@shop.test/a?token=<redacted>&b=1"
    /// ```
    public func redact(_ url: URL) -> String {
        RedactURL.text(of: url, redaction: self)
    }

    /// The request's method, redacted URL and redacted headers, one per line, and the size of
    /// its body (never the body itself).
    ///
    /// ```
    /// POST https://shop.test/orders?token=<redacted>
    /// Authorization: <redacted>
    /// Content-Type: application/json
    /// (body: 42 bytes)
    /// ```
    public func describe(_ request: URLRequest) -> String {
        var lines = ["\(request.httpMethod ?? "GET") \(request.url.map(redact) ?? "(no URL)")"]
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        lines += headers.map { "\($0.key): \(redactedValue($0.value, ofHeader: $0.key))" }
        if let body = request.httpBody, !body.isEmpty {
            lines.append("(body: \(body.count) bytes)")
        } else if request.httpBodyStream != nil {
            lines.append("(body: a stream)")
        }
        return scrub(lines.joined(separator: "\n"), secretsOf: request)
    }

    /// Says what `error` is, in one line that is safe to log: the secrets of `request` and
    /// `response` (secret header values, secret query values, URL credentials) are replaced by
    /// ``marker`` wherever they appear in the error's text.
    ///
    /// ```swift
    /// redaction.describe(error, for: request)   // "URLError -1004: … ?token=<redacted>"
    /// ```
    public func describe(_ error: any Error, for request: URLRequest? = nil, response: URLResponse? = nil) -> String {
        let text: String
        switch error {
        case is CancellationError:
            text = "cancelled"
        case let error as URLError:
            text = "URLError \(error.code.rawValue): \(error.localizedDescription)"
        case let error as HTTPStatusError:
            text = error.description
        default:
            text = String(describing: error)
        }
        let flattened = text.replacingOccurrences(of: "\n", with: " ")
        guard let request else { return scrub(flattened, secrets: RedactSecrets.of(response: response, redaction: self)) }
        return scrub(flattened, secretsOf: request, response: response)
    }

    /// `text` with every secret of `request` (and `response`) replaced by ``marker``: the values
    /// of secret headers and the credentials inside them (a bearer token, a Basic user and
    /// password, cookie values), secret query values (raw and percent-encoded), and the URL's
    /// user and password. Pieces shorter than three characters, or found in the marker itself,
    /// are left alone.
    ///
    /// Use it on text that might quote a request, such as an error message.
    public func scrub(_ text: String, secretsOf request: URLRequest, response: URLResponse? = nil) -> String {
        let secrets =
            RedactSecrets.of(request: request, redaction: self)
            + RedactSecrets.of(response: response, redaction: self)
        return scrub(text, secrets: secrets)
    }

    /// `text` with each of `secrets` replaced by ``marker``, longest first.
    func scrub(_ text: String, secrets: [String]) -> String {
        let ordered = Set(secrets).filter { $0.count >= 3 && !marker.contains($0) }.sorted { $0.count > $1.count }
        return ordered.reduce(text) { text, secret in text.replacingOccurrences(of: secret, with: marker) }
    }
}
