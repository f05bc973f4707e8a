import Foundation

/// A request the transport stopped: a body over the size limit, a redirect chain too long, a
/// redirect from HTTPS to plain HTTP, a redirect that would resend the body to another origin
/// (all by its ``TransportPolicy``), or a download that could not be written.
///
/// URLs in these errors are redacted: user-info passwords and secret query values are hidden.
/// `description` and `localizedDescription` say the same words.
///
/// ```swift
/// do {
///     _ = try await transport(request)
/// } catch TransportError.responseTooLarge(let limit, _) {
///     print("more than \(limit) bytes; raise Endpoint.maximumResponseSize for this endpoint")
/// }
/// ```
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
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

    /// What happened, in words.
    public var description: String {
        switch self {
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
        }
    }

    /// The same words as ``description``, so that `localizedDescription` says them too.
    public var errorDescription: String? {
        description
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
