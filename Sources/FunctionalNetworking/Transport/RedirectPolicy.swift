import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the transport answers a redirect: follow it, stop and return the 3xx response, or fail.
///
/// The transport follows redirects itself, the same way on every platform, and asks its policy
/// at each hop. ``follow(maximumHops:allowingInsecureRedirects:)`` is the default:
///
/// ```swift
/// let policy = TransportPolicy(redirects: .follow(maximumHops: 5))
/// let transport = URLSession.shared.transport(policy: policy)
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
    /// credential rules applied), and fails with ``TransportError/tooManyRedirects(limit:url:)``
    /// past that. A redirect from `https` to `http` fails with
    /// ``TransportError/insecureRedirect(from:to:)`` unless `allowingInsecureRedirects` is
    /// `true`.
    ///
    /// - Parameters:
    ///   - maximumHops: How many redirects one request may follow; 20 unless you say.
    ///   - allowingInsecureRedirects: Whether a redirect may leave HTTPS for plain HTTP.
    /// - Returns: The policy.
    public static func follow(maximumHops: Int = 20, allowingInsecureRedirects: Bool = false) -> RedirectPolicy {
        RedirectPolicy { redirect in
            let from = (redirect.response.url ?? redirect.request.url).map { Redaction.default.redact($0) } ?? ""
            guard redirect.hop <= maximumHops else {
                return .fail(TransportError.tooManyRedirects(limit: maximumHops, url: from))
            }
            if redirect.isInsecure, !allowingInsecureRedirects {
                let to = redirect.proposedRequest.url.map { Redaction.default.redact($0) } ?? ""
                return .fail(TransportError.insecureRedirect(from: from, to: to))
            }
            return .follow(redirect.proposedRequest)
        }
    }

    /// Follows no redirect: the caller receives every 3xx response as it came.
    public static let never = RedirectPolicy { _ in .stop }
}
