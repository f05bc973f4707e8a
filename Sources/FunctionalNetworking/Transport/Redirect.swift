import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One redirect, as a ``RedirectPolicy`` sees it: the 3xx response, the request that received
/// it, and the request that following it would send.
///
/// The proposed request already obeys RFC 9110 §15.4 and the package's header rules:
/// - 303 turns any method but `HEAD` into `GET`, and 301 or 302 turn a `POST` into `GET`; the
///   body and the headers that describe it (`Content-Type`, `Content-Length`, …) go with it.
/// - 307 and 308 keep the method and the body (as 301 and 302 do for any method but `POST`),
///   whatever the origin: ``carriesBody`` and ``isCrossOrigin`` say when that body would go
///   to another origin, which ``RedirectPolicy/follow(maximumHops:allowingInsecureRedirects:allowingCrossOriginBodies:)``
///   refuses unless allowed. A policy of your own that follows such a redirect sends the body
///   there.
/// - When the redirect leaves the request's origin (scheme, host or port), every header that
///   carries a credential is removed: every header of ``Redaction/defaultHeaderNames``
///   (`Authorization`, `Proxy-Authorization`, `Cookie`, the API-key headers…) and the names
///   the policy's ``TransportPolicy/redaction`` adds. (Cookies from the session's cookie storage are
///   added again for the new URL, by the cookies' own rules.)
/// - When the redirect leaves the request's origin, every header that routes the request or
///   names its first destination or its client is removed too, since it was meant for the
///   first origin only: `Host`, HTTP/2 pseudo-header names (`:authority`, …), `Forwarded`,
///   every `X-Forwarded-*` header (`X-Forwarded-Host`, `X-Forwarded-For`, `X-Forwarded-Proto`,
///   `X-Forwarded-Port`, …), `X-Original-URL`, `X-Rewrite-URL`, `X-Original-Host`, `X-Host`,
///   `X-HTTP-Host-Override`, `X-Real-IP`, `X-Client-IP` and `True-Client-IP`.
///
/// ```swift
/// let policy = RedirectPolicy { redirect in
///     redirect.isCrossOrigin ? .stop : .follow(redirect.proposedRequest)
/// }
/// ```
public struct Redirect: Sendable {
    /// The 3xx response.
    public let response: HTTPURLResponse
    /// The request that received ``response``.
    public let request: URLRequest
    /// The request that following the redirect sends.
    public let proposedRequest: URLRequest
    /// The redirect's place in its chain: 1 for the first.
    public let hop: Int

    /// The headers that route a request or name its first destination or its client, dropped
    /// from a request whose redirect leaves its origin, besides every `X-Forwarded-*` header and
    /// every pseudo-header name (`:authority`); lower-cased.
    static let routingHeaderNames: Set<String> = [
        "host", "forwarded", "x-original-url", "x-rewrite-url", "x-original-host", "x-host", "x-http-host-override",
        "x-real-ip", "x-client-ip", "true-client-ip",
    ]

    /// Whether `lowered`, a lower-cased header name, routes a request (see ``routingHeaderNames``).
    static func isRoutingHeader(_ lowered: String) -> Bool {
        routingHeaderNames.contains(lowered) || lowered.hasPrefix("x-forwarded-") || lowered.hasPrefix(":")
    }

    /// Whether `response` has a status the package follows (301, 302, 303, 307, 308) and a
    /// `Location`; ``init(response:to:hop:redaction:)`` then reads where it leads.
    static func isFollowable(_ response: HTTPURLResponse) -> Bool {
        [301, 302, 303, 307, 308].contains(response.statusCode) && response.value(forHTTPHeaderField: "Location") != nil
    }

    /// The headers that describe a request's body, dropped with the body.
    static let contentHeaderNames: Set<String> = [
        "content-type", "content-length", "content-encoding", "content-language", "content-location",
        "transfer-encoding", "digest", "content-digest", "content-md5",
    ]

    /// Reads the redirect in `response` to `request`; `nil` when `response` is not one that
    /// can be followed: a status other than 301, 302, 303, 307 or 308, or no `Location` that
    /// names an `http` or `https` URL.
    ///
    /// - Parameters:
    ///   - response: The response to `request`.
    ///   - request: The request that received `response`.
    ///   - hop: The redirect's place in its chain, from 1.
    ///   - redaction: Which headers carry credentials, dropped when the redirect leaves the
    ///     origin: ``Redaction/defaultHeaderNames`` always, and the names `redaction` adds.
    public init?(response: HTTPURLResponse, to request: URLRequest, hop: Int = 1, redaction: Redaction = .default) {
        guard Self.isFollowable(response),
            let location = response.value(forHTTPHeaderField: "Location"),
            let base = response.url ?? request.url,
            let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
            target.host?.isEmpty == false
        else {
            return nil
        }
        self.response = response
        self.request = request
        self.hop = hop

        var next = request
        next.url = target
        let method = request.httpMethod?.uppercased() ?? "GET"
        let becomesGET =
            (response.statusCode == 303 && method != "HEAD")
            || ((response.statusCode == 301 || response.statusCode == 302) && method == "POST")
        if becomesGET {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in (next.allHTTPHeaderFields ?? [:]).keys where Self.contentHeaderNames.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        if Origin(url: target) != Origin(url: base) {
            for name in (next.allHTTPHeaderFields ?? [:]).keys {
                let lowered = name.lowercased()
                if redaction.carriesCredential(lowercased: lowered) || Self.isRoutingHeader(lowered) {
                    next.setValue(nil, forHTTPHeaderField: name)
                }
            }
        }
        proposedRequest = next
    }

    /// Whether the redirect leaves the origin (scheme, host or port) of the request.
    public var isCrossOrigin: Bool {
        Origin(url: proposedRequest.url) != Origin(url: response.url ?? request.url)
    }

    /// Whether ``proposedRequest`` sends a body: a non-empty `httpBody`, or an `httpBodyStream`.
    ///
    /// A 307 or 308 keeps the body (and so do 301 and 302 for any method but `POST`); with
    /// ``isCrossOrigin`` it says that following the redirect would send the body to another
    /// origin.
    public var carriesBody: Bool {
        proposedRequest.httpBodyStream != nil || proposedRequest.httpBody?.isEmpty == false
    }

    /// Whether the redirect leads from `https` to plain `http`.
    public var isInsecure: Bool {
        (response.url ?? request.url)?.scheme?.lowercased() == "https"
            && proposedRequest.url?.scheme?.lowercased() == "http"
    }
}
