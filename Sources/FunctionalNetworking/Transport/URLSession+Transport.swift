import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// This session as a ``Transport``: the base function that composers wrap, with the
    /// package's ``TransportPolicy/default``.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport
    /// let (data, response) = try await transport(URLRequest(url: url))
    /// ```
    ///
    /// Requests go through the package's own session delegate, built from this session's
    /// configuration, so that every platform behaves the same:
    /// - Redirects are followed by
    ///   ``RedirectPolicy/follow(maximumHops:allowingInsecureRedirects:allowingCrossOriginBodies:)``:
    ///   at most 20 hops; 307 and 308 keep the method and the body, but a body never goes to
    ///   another origin (``TransportError/crossOriginBody(status:from:to:)``); credentials
    ///   (`Authorization`, `Cookie`, API-key headers…) and routing headers (`Host`,
    ///   `X-Forwarded-*`…) never cross to another origin; a redirect from HTTPS to HTTP fails with
    ///   ``TransportError/insecureRedirect(from:to:)``.
    /// - A 401 or 407 reaches the caller as that response, with its headers and body, whatever
    ///   its `WWW-Authenticate`; credentials are never sent in answer to a challenge. Server
    ///   trust stays the platform's: nothing turns TLS verification off.
    /// - A body is kept in memory up to 64 MiB (decoded); a larger one is cancelled while it
    ///   arrives and fails with ``TransportError/responseTooLarge(limit:url:)``.
    /// - Cancelling the calling task cancels the request at once, and it fails with
    ///   `CancellationError`.
    /// - Every request it is handed, and every redirect hop's, is checked before a byte is sent
    ///   (with the configuration's `httpAdditionalHeaders`): a method or header name that is not
    ///   an HTTP token, a header value with CR, LF, NUL or another control character, or a URL
    ///   that is not `http`/`https` with a host fails with a ``TransportError`` naming the part
    ///   (never a header's value), and a response with conflicting `Content-Length` values fails
    ///   with ``TransportError/invalidContentLength(_:url:)``.
    ///
    /// `URLSession.shared` cannot be given a delegate, so its requests go through one package
    /// session built from its configuration, shared by the whole process. Any other session
    /// gets one package session, built from its configuration at its first use (its own
    /// delegate, if it has one, is not called) and kept for as long as the session lives:
    /// every read of `transport`, `transport(with:)` or `transport(policy:with:)`, and every
    /// ``request(_:)``, sends through it, so reading the property builds nothing and the
    /// requests share connections. A transport keeps its package session for as long as it is
    /// in use, even after the session is freed; the package session is invalidated once both
    /// are gone.
    ///
    /// The package session is the package's own URLSession, so `invalidateAndCancel()` or
    /// `finishTasksAndInvalidate()` on this session does not reach it: transports made from an
    /// invalidated session, and later reads of its `transport`, keep working through the same
    /// package session (URLSession has no public way to ask whether a session is invalidated,
    /// so the package cannot refuse them). To stop a request, cancel its task or its future.
    public var transport: Transport {
        transport(policy: .default)
    }

    /// This session as a ``Transport`` under `policy`, wrapped in `composers`, each at its
    /// ``Composer/place``: the stack is in the right order whatever order you list it in (see
    /// ``Composer`` for the order and its reasons).
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with: .validatingStatus(), .retry())
    /// let strict = URLSession.shared.transport(policy: TransportPolicy(redirects: .never))
    /// ```
    ///
    /// - Parameters:
    /// Every transport of one session, whatever its policy and composers, sends through that
    /// session's one package session, so reading this again builds no session and reuses the
    /// session's connections; see ``transport``.
    ///
    /// - Parameters:
    ///   - policy: Redirects, the response size limit and secret headers; see ``transport``.
    ///   - composers: The composers, in any order.
    /// - Returns: The composed transport.
    public func transport(policy: TransportPolicy = .default, with composers: Composer...) -> Transport {
        let package = PackageSession.sending(for: self)
        // URLSession adds these headers to every request as written: a bad one fails them all.
        let configured =
            self === URLSession.shared
            ? WireCheck.sharedSessionProblem : WireCheck.problem(inAdditionalHeaders: configuration.httpAdditionalHeaders)
        let base: Transport = { request in
            if let configured { throw configured }
            return try await package.send(request, policy: policy)
        }
        return composers.isEmpty ? base : Composer.ordered(composers).wrapping(base)
    }

    /// Starts the request for `endpoint` and returns the future of its body.
    ///
    /// A 2xx response gives the body; any other status rejects the future with
    /// ``HTTPStatusError`` (status, headers and body). An endpoint that cannot make a URL
    /// rejects it with ``Endpoint/Error/invalidURL``. Cancelling the future cancels the request,
    /// and a request cancelled any other way is reported as `CancellationError` too. Redirects,
    /// challenges and sizes follow ``TransportPolicy/default``, as ``transport`` describes.
    ///
    /// ```swift
    /// let networking: Networking = URLSession.shared.request
    /// let product: Future<Product> = networking(.product(withID: 7)).decoded()
    /// ```
    ///
    /// Every call on one session goes through that session's one package session (see
    /// ``transport``), so calls one after another reuse its connections, on
    /// `URLSession.shared` and on a session of your own alike.
    public func request(_ endpoint: Endpoint) -> Future<Data> {
        networking(from: transport)(endpoint)
    }
}
