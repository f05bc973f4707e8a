import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What is secret in a request: the one place that decides it, for logging, metrics, cURL,
/// request descriptions and the descriptions of errors.
///
/// **What ``default`` hides**, names compared ignoring case:
/// - the values of the headers in ``defaultHeaderNames``: `Authorization`,
///   `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-API-Key`, `API-Key`, `X-Auth-Token`,
///   `X-Access-Token`, `X-CSRF-Token`, `X-XSRF-Token`, `X-Amz-Security-Token` and
///   `X-Goog-API-Key`;
/// - the values of the query items, form fields and JSON members named in
///   ``defaultQueryItemNames``: `token`, `access_token`, `refresh_token`, `id_token`,
///   `auth_token`, `api_key`, `apikey`, `api-key`, `key`, `password`, `passwd`, `secret`,
///   `client_secret`, `signature`, `sig`, `X-Amz-Signature`, `X-Amz-Credential`,
///   `X-Amz-Security-Token`, and the spellings without `_` (`accessToken`,
///   `refreshToken`, `clientSecret`…);
/// - the user and password of a URL (`https://user:pass@host`).
///
/// Name more headers and query items to hide; their values become ``marker``:
///
/// ```swift
/// let redaction = Redaction.default.redactingHeaders("X-Session").redactingQueryItems("ticket")
/// redaction.redact(URL(string: "https://shop.test/cart?ticket=s3cr3t&page=2")!)
/// // "https://shop.test/cart?ticket=<redacted>&page=2"
/// redaction.describe(request)
/// // GET https://shop.test/cart?ticket=<redacted>&page=2
/// // Authorization: <redacted>
/// // X-Session: <redacted>
/// ```
///
/// A request body is never shown by ``describe(_:)``, only its size;
/// `URLRequest.curlCommand(redaction:)` and the body preview of ``HTTPStatusError`` show a
/// text body with the values of secret-named JSON members and form fields hidden (other text
/// is shown as it is).
public struct Redaction: Sendable, Hashable {
    /// The headers that carry secrets, lower-cased: `authorization`, `proxy-authorization`,
    /// `cookie`, `set-cookie`, `x-api-key`, `api-key`, `x-auth-token`, `x-access-token`,
    /// `x-csrf-token`, `x-xsrf-token`, `x-amz-security-token` and `x-goog-api-key`.
    ///
    /// The package's one list of secret headers, which every rule reads: logs, metrics, cURL
    /// output and error descriptions hide their values; a redirect that leaves the request's
    /// origin removes them (``TransportPolicy/redaction``); ``ResponseCache`` and
    /// ``RequestDeduplicator`` tell users apart by them (`set-cookie`, a response header,
    /// aside). Add a name of your own with ``redactingHeaders(_:)``, and pass that redaction
    /// to each of them; no redaction removes a name of this list from those rules.
    public static let defaultHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
        "x-access-token", "x-csrf-token", "x-xsrf-token", "x-amz-security-token", "x-goog-api-key",
    ]

    /// The query item (and form field, and JSON member) names every redaction starts from,
    /// lower-cased: `token`, `access_token`, `refresh_token`, `id_token`, `auth_token`,
    /// `api_key`, `apikey`, `api-key`, `key`, `password`, `passwd`, `secret`, `client_secret`,
    /// `signature`, `sig`, `x-amz-signature`, `x-amz-credential`, `x-amz-security-token`, and
    /// the same names without `_` (`accesstoken`, `refreshtoken`, `clientsecret`…), which
    /// cover their camel-case spellings.
    public static let defaultQueryItemNames: Set<String> = {
        let names: Set<String> = [
            "token", "access_token", "refresh_token", "id_token", "auth_token", "api_key", "apikey", "api-key", "key",
            "password", "passwd", "secret", "client_secret", "signature", "sig", "x-amz-signature", "x-amz-credential",
            "x-amz-security-token",
        ]
        return names.union(names.map { $0.replacingOccurrences(of: "_", with: "") })
    }()

    /// Hides ``defaultHeaderNames``, ``defaultQueryItemNames`` and URL credentials; add to it
    /// with `redactingHeaders(_:)` and `redactingQueryItems(_:)`.
    public static let `default` = Redaction(headers: defaultHeaderNames, queryItems: defaultQueryItemNames)

    /// Hides nothing, not even URL credentials: for a cURL command you mean to run as is.
    public static let none = Redaction(redactsURLCredentials: false)

    /// The text that replaces a secret value, `<redacted>` unless you chose another.
    public var marker: String

    /// The names of the headers whose values are hidden, lower-cased.
    public private(set) var headerNames: Set<String>

    /// The names of the query items whose values are hidden, lower-cased (they compare
    /// case-insensitively, so `Token` and `token` are both hidden). Form fields and JSON
    /// members with these names are hidden in the bodies that are shown.
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

    /// A copy that also hides the values of the headers called `names` (any case), and treats
    /// them as credentials wherever the copy is passed: a ``TransportPolicy``, a
    /// ``ResponseCache``, a ``RequestDeduplicator``, the logs.
    ///
    /// ```swift
    /// let redaction = Redaction.default.redactingHeaders("X-Session", "X-Tenant-Key")
    /// ```
    public func redactingHeaders(_ names: String...) -> Redaction {
        redactingHeaders(names)
    }

    /// A copy that also hides the values of the headers called `names` (any case).
    func redactingHeaders(_ names: some Sequence<String>) -> Redaction {
        var copy = self
        copy.headerNames.formUnion(names.map { $0.lowercased() })
        return copy
    }

    /// A copy that also hides the values of the query items called `names` (any case).
    ///
    /// ```swift
    /// let redaction = Redaction.default.redactingQueryItems("ticket", "otp")
    /// ```
    public func redactingQueryItems(_ names: String...) -> Redaction {
        redactingQueryItems(names)
    }

    /// A copy that also hides the values of the query items called `names` (any case).
    func redactingQueryItems(_ names: some Sequence<String>) -> Redaction {
        var copy = self
        copy.queryItemNames.formUnion(names.map { $0.lowercased() })
        return copy
    }

    /// Whether the value of the header called `name` is hidden.
    func isSecretHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased())
    }

    /// Whether the header whose lower-cased name is `name` carries a credential, for the rules
    /// that guard one: a redirect that leaves the origin drops it, and the cache and
    /// de-duplication tell users apart by it. A name in ``defaultHeaderNames`` always does, so
    /// a redaction that shows more (``none``, for a cURL command to run) never weakens them.
    func carriesCredential(lowercased name: String) -> Bool {
        Self.defaultHeaderNames.contains(name) || headerNames.contains(name)
    }

    /// Whether the value of the query item called `name` is hidden.
    func isSecretQueryItem(_ name: String) -> Bool {
        queryItemNames.contains(name.lowercased())
    }

    /// `value` as it may be shown for the header `name`: itself, or ``marker``.
    func redactedValue(_ value: String, ofHeader name: String) -> String {
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
    func redact(_ headers: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: headers.map { ($0.key, redactedValue($0.value, ofHeader: $0.key)) })
    }

    /// The URL as text with secret query values and (unless turned off) its user and password
    /// replaced by ``marker``; everything else, fragment included, stays as written.
    ///
    /// ```swift
    /// Redaction.default.redact(URL(string: "https://ann:pw@shop.test/a?token=s3cr3t&b=1")!)
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
        } else if let form = StreamedBody.of(request.httpBodyStream)?.form,
            let shown = describeBody(nil, streamed: .multipart(form))
        {
            lines.append("(body: \(shown))")
        } else if request.httpBodyStream != nil {
            lines.append("(body: a stream)")
        }
        return scrub(lines.joined(separator: "\n"), secretsOf: request)
    }

    /// Says what `error` is, in one line that is safe to log: a `URLError` by its code, its
    /// meaning (could not connect, timed out, TLS failed, cannot find the host…) and its
    /// redacted failing URL, or the request's when the error has none (never the dump of its
    /// user info); any URL in
    /// another error's text redacted; and the secrets of `request` and `response` (secret
    /// header values, secret query values, URL credentials) replaced by ``marker`` wherever
    /// they appear.
    ///
    /// ```swift
    /// redaction.describe(error, for: request)
    /// // "URLError -1004 (could not connect to the server) for https://shop.test/a?token=<redacted>"
    /// ```
    public func describe(_ error: any Error, for request: URLRequest? = nil, response: URLResponse? = nil) -> String {
        let text = ErrorWords.of(error, redaction: self, requestURL: request?.url)
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
    func scrub(_ text: String, secretsOf request: URLRequest, response: URLResponse? = nil) -> String {
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
