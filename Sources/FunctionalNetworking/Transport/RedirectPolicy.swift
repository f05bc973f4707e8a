import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the transport answers a redirect: follow it, stop and return the 3xx response, or fail.
///
/// The transport follows redirects itself, the same way on every platform, and asks its policy
/// at each hop. ``follow(maximumHops:allowingInsecureRedirects:allowingCrossOriginBodies:)`` is
/// the default:
///
/// ```swift
/// let policy = TransportPolicy(redirects: .follow(maximumHops: 5))
/// let session = NetworkSession(configuration: URLSession.shared.configuration, policy: policy)
/// ```
///
/// Your own policy is a function of the ``Redirect``, and can be tested as one:
///
/// ```swift
/// let sameOriginOnly = RedirectPolicy { redirect in
///     redirect.isCrossOrigin ? .stop : .follow(redirect.proposedRequest)
/// }
/// ```
public struct RedirectPolicy: Sendable {
    private let decide: @Sendable (Redirect) -> RedirectDecision

    /// A policy that decides each redirect with `decide`.
    ///
    /// - Parameter decide: Called once per hop with the redirect; returns what to do.
    public init(_ decide: @escaping @Sendable (Redirect) -> RedirectDecision) {
        self.decide = decide
    }

    /// What this policy does with `redirect`.
    ///
    /// - Parameter redirect: A redirect the transport received.
    /// - Returns: Follow a request, stop, or fail.
    public func decision(for redirect: Redirect) -> RedirectDecision {
        decide(redirect)
    }

    /// Follows up to `maximumHops` redirects with ``Redirect/proposedRequest`` (method, body and
    /// header rules applied), and fails with ``TransportError/tooManyRedirects(limit:url:)``
    /// past that. Two redirects fail unless you allow them:
    /// - from `https` to `http`, with ``TransportError/insecureRedirect(from:to:)``, unless
    ///   `allowingInsecureRedirects` is `true`;
    /// - to another origin (scheme, host or port) with the request's body, which a 307 or 308
    ///   resends (so do 301 and 302 for any method but `POST`), with
    ///   ``TransportError/crossOriginBody(status:from:to:)``, unless `allowingCrossOriginBodies`
    ///   is `true`: a token request's `client_secret` or a sign-in form's `password` is meant for
    ///   the origin it was sent to. Nothing is sent to the other origin. A redirect that leaves
    ///   the origin without a body (a `GET`, or a `POST` that a 302 or 303 turns into a `GET`)
    ///   is followed.
    ///
    /// To let the body go to some origins only, decide per redirect:
    ///
    /// ```swift
    /// let uploads = Origin(url: URL(string: "https://uploads.shop.example")!)
    /// let policy = RedirectPolicy { redirect in
    ///     let trusted = Origin(url: redirect.proposedRequest.url) == uploads
    ///     return RedirectPolicy.follow(allowingCrossOriginBodies: trusted).decision(for: redirect)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maximumHops: How many redirects one request may follow; 20 unless you say.
    ///   - allowingInsecureRedirects: Whether a redirect may leave HTTPS for plain HTTP.
    ///   - allowingCrossOriginBodies: Whether a redirect may resend the request's body to
    ///     another origin.
    /// - Returns: The policy.
    public static func follow(
        maximumHops: Int = 20,
        allowingInsecureRedirects: Bool = false,
        allowingCrossOriginBodies: Bool = false
    ) -> RedirectPolicy {
        RedirectPolicy { redirect in
            let source = redirect.response.url ?? redirect.request.url
            let from = source.map { Redaction.default.redact($0) } ?? ""
            guard redirect.hop <= maximumHops else {
                return .fail(TransportError.tooManyRedirects(limit: maximumHops, url: from))
            }
            if redirect.isInsecure, !allowingInsecureRedirects {
                let to = redirect.proposedRequest.url.map { Redaction.default.redact($0) } ?? ""
                return .fail(TransportError.insecureRedirect(from: from, to: to))
            }
            if redirect.isCrossOrigin, redirect.carriesBody, !allowingCrossOriginBodies {
                let (origin, target) = (Self.origin(of: source), Self.origin(of: redirect.proposedRequest.url))
                return .fail(TransportError.crossOriginBody(status: redirect.response.statusCode, from: origin, to: target))
            }
            return .follow(redirect.proposedRequest)
        }
    }

    /// The origin of `url` as written in it, `scheme://host[:port]`, redacted: no user, path,
    /// query or fragment.
    static func origin(of url: URL?) -> String {
        guard let url, var components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: false) else {
            return ""
        }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        return components.url.map { Redaction.default.redact($0) } ?? ""
    }

    /// Follows no redirect: the caller receives every 3xx response as it came.
    public static let never = RedirectPolicy { _ in .stop }
}
