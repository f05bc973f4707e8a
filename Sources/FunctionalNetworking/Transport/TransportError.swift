import Foundation

/// A request that failed in the transport: the network failed it (timed out, refused, host not
/// found, connection lost, TLS…: ``networkFailure(_:url:timeout:attempts:)``, with the
/// platform's `URLError` kept), or the transport stopped it: a body over the size limit, a redirect chain too long, a
/// redirect from HTTPS to plain HTTP, a redirect that would resend the body to another origin
/// (all by its ``TransportPolicy``), a download that could not be written, a request that
/// cannot be sent as it is (a method or header that would inject a line, a URL that is not
/// HTTP), or a response whose length is ambiguous.
///
/// URLs in these errors are redacted: user-info passwords and secret query values are hidden.
/// Header values are never shown. `description` and `localizedDescription` say the same words.
///
/// ```swift
/// do {
///     _ = try await transport(request)
/// } catch TransportError.responseTooLarge(let limit, _) {
///     print("more than \(limit) bytes; raise Endpoint.maximumResponseSize for this endpoint")
/// } catch let error as TransportError where error.urlError?.code == .notConnectedToInternet {
///     showOffline()
/// }
/// ```
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The network failed the request to `url` (redacted): the platform's `URLError`, kept
    /// whole for code that branches on its code (also as ``urlError`` and
    /// ``underlyingError``). `timeout` is the request's time limit when the error is
    /// `URLError.timedOut`, and `attempts` how many attempts were made (1 unless
    /// ``Composer/retry(_:clock:)`` made more). A cancelled request is never this error: it fails
    /// with `CancellationError`.
    ///
    /// ```swift
    /// do {
    ///     _ = try await transport(request)
    /// } catch let error as TransportError where error.urlError?.code == .timedOut {
    ///     retryLater()
    /// }
    /// ```
    case networkFailure(URLError, url: String, timeout: Duration? = nil, attempts: Int = 1)
    /// The response's decoded body passed `limit` bytes, so the transfer was cancelled; `url`
    /// is the redacted URL that sent it.
    case responseTooLarge(limit: Int, url: String)
    /// The redirect chain passed `limit` hops; `url` is the redacted URL of the last redirect.
    case tooManyRedirects(limit: Int, url: String)
    /// A redirect led from HTTPS to plain HTTP, which the policy refuses; both URLs redacted.
    case insecureRedirect(from: String, to: String)
    /// A redirect with status `status` would have resent the request's body to another origin,
    /// which the policy refuses; nothing was sent there. `from` and `to` are the two origins
    /// (`scheme://host[:port]`), redacted.
    case crossOriginBody(status: Int, from: String, to: String)
    /// A download could not be written to `path`, for `reason`; no partial file is left.
    case downloadFailed(path: String, reason: String)
    /// The request's method is not an HTTP token (RFC 9110 §9.1): it is empty, or holds a
    /// space, CR, LF, NUL or another character a method cannot have. Nothing was sent.
    case invalidMethod(String)
    /// A header field's name, given here, is not an HTTP token (RFC 9110 §5.1): it is empty, or
    /// holds a space, a colon, CR, LF, NUL or the like. Nothing was sent.
    case invalidHeaderName(String)
    /// The value of the header field `name` holds a control character (CR, LF, NUL, DEL, or any
    /// other but a tab), which could end the field early. The value is not kept, as it may be a
    /// secret. Nothing was sent.
    case invalidHeaderValue(name: String)
    /// The request has no URL, or one that is not an `http` or `https` URL with a host; the
    /// URL, redacted, or `nil` when there is none. Nothing was sent.
    case unsupportedURL(String?)
    /// The response from `url` (redacted) declares conflicting lengths, such as
    /// `Content-Length: 5` and `Content-Length: 13` (`value` is the field as received, joined
    /// by `", "`), or a length that is not a number, so where its body ends is unknown
    /// (RFC 9112 §6.3). Its body is not returned. Repeated identical lengths are accepted.
    case invalidContentLength(String, url: String)

    /// The platform's `URLError` of a ``networkFailure(_:url:timeout:attempts:)``, whose
    /// `code` says what failed (`.timedOut`, `.cannotConnectToHost`, `.notConnectedToInternet`…);
    /// `nil` for the errors the transport makes itself.
    public var urlError: URLError? {
        if case .networkFailure(let error, _, _, _) = self { error } else { nil }
    }

    /// The error this one wraps: the `URLError` of a ``networkFailure(_:url:timeout:attempts:)``,
    /// `nil` for the errors the transport makes itself.
    public var underlyingError: (any Error)? {
        urlError
    }

    /// How many attempts were made: 1 unless ``Composer/retry(_:clock:)`` retried a
    /// ``networkFailure(_:url:timeout:attempts:)``.
    public var attempts: Int {
        if case .networkFailure(_, _, _, let attempts) = self { attempts } else { 1 }
    }

    /// What happened, in words.
    public var description: String {
        switch self {
        case .networkFailure(let error, let url, let timeout, let attempts):
            Self.words(for: error.code, url: url, timeout: timeout)
                + (attempts > 1 ? " Gave up after \(attempts) attempts." : "")
        case .responseTooLarge(let limit, let url):
            "The response from \(url) is larger than the limit of \(Self.bytes(limit)) (decoded body), "
                + "so the transfer was cancelled. Raise TransportPolicy.maximumResponseSize, or "
                + "Endpoint.maximumResponseSize for this endpoint, if the response is expected to be this large."
        case .tooManyRedirects(let limit, let url):
            "Stopped following redirects after \(limit) hops; the last redirect came from \(url)."
        case .insecureRedirect(let from, let to):
            "Refused a redirect from \(from) to \(to): it leaves HTTPS for plain HTTP. "
                + "Allow it with RedirectPolicy.follow(allowingInsecureRedirects: true) only if you must."
        case .crossOriginBody(let status, let from, let to):
            "A \(status) redirect from \(from) would resend the request's body to \(to), another origin, so the request "
                + "was stopped and nothing was sent there. If that origin should receive the body, allow it with "
                + "RedirectPolicy.follow(allowingCrossOriginBodies: true)."
        case .downloadFailed(let path, let reason):
            "The download to \(path) failed: \(reason). No partial file was left."
        case .invalidMethod(let method):
            "The request was not sent: its HTTP method \(Self.quoted(method)) is not an HTTP token ("
                + (HTTPFieldSyntax.tokenFault(in: method) ?? "it has a character a token cannot have")
                + "). A method is made of letters, digits and !#$%&'*+-.^_`|~ only, such as \"GET\" or \"PURGE\"."
        case .invalidHeaderName(let name):
            "The request was not sent: the header name \(Self.quoted(name)) is not an HTTP token ("
                + (HTTPFieldSyntax.tokenFault(in: name) ?? "it has a character a token cannot have")
                + "). A name is made of letters, digits and !#$%&'*+-.^_`|~ only: no spaces, colons or line breaks."
        case .invalidHeaderValue(let name):
            "The request was not sent: the value of the header \(Self.quoted(name)) contains a control character "
                + "(CR, LF, NUL or another, other than a tab), which could end the field early and inject a line. "
                + "The value is not shown, as it may be a secret; remove the control characters or encode the value."
        case .unsupportedURL(let url?):
            "The request was not sent: its URL \(url) is not an http or https URL with a host, "
                + "and the transport sends only those."
        case .unsupportedURL(nil):
            "The request was not sent: it has no URL."
        case .invalidContentLength(let value, let url):
            "The response from \(url) was not used: its Content-Length \(Self.quoted(value)) "
                + (ContentLength.reading(value) == .conflicting ? "gives conflicting lengths" : "is not a length")
                + ", so where its body ends is unknown (RFC 9112 §6.3). The server, or a proxy between, is misbehaving."
        }
    }

    /// The same words as ``description``, so that `localizedDescription` says them too.
    public var errorDescription: String? {
        description
    }

    /// A sentence saying what `code` did to the request to `url`.
    private static func words(for code: URLError.Code, url: String, timeout: Duration?) -> String {
        let request = "The request to \(url)"
        switch code {
        case .timedOut:
            return request + " timed out" + (timeout.map { " after \(seconds($0))" } ?? "") + "."
        case .cannotConnectToHost:
            return request + " could not connect: the connection was refused, or the server could not be reached."
        case .cannotFindHost:
            return request + " failed: its host was not found (no address for its name)."
        case .networkConnectionLost:
            return request + " failed: the connection was lost before the response was complete."
        case .notConnectedToInternet:
            return request + " failed: the device is not connected to the internet."
        default:
            return request + " failed: \(ErrorWords.meaning(of: code)) (URLError \(code.rawValue))."
        }
    }

    /// `1 s`, `1.5 s`, `250 ms`.
    private static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        if whole == 0, attoseconds > 0 {
            return "\(attoseconds / 1_000_000_000_000_000) ms"
        }
        if attoseconds == 0 {
            return "\(whole) s"
        }
        let value = Double(whole) + Double(attoseconds) / 1e18
        return "\((value * 1000).rounded() / 1000) s"
    }

    /// `text` quoted and escaped as Swift writes it (`"X-A\r\nX-B"`), cut at 100 characters.
    private static func quoted(_ text: String) -> String {
        text.count > 100 ? String(text.prefix(100)).debugDescription + "…" : text.debugDescription
    }

    /// `67,108,864 bytes (64 MiB)`.
    private static func bytes(_ count: Int) -> String {
        let mebibytes = Double(count) / 1_048_576
        let digits = String(count).reversed().enumerated().map { ($0.offset > 0 && $0.offset % 3 == 0 ? "," : "") + String($0.element) }
        let grouped = String(digits.joined().reversed())
        if count >= 1_048_576 {
            let shown = mebibytes.rounded() == mebibytes ? String(Int(mebibytes)) : String(format: "%.1f", mebibytes)
            return "\(grouped) bytes (\(shown) MiB)"
        }
        return "\(grouped) bytes"
    }
}
