import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session you make once and keep: it owns a URLSession with the package's delegate, and
/// gives the transports every request goes through.
///
/// ```swift
/// let session = NetworkSession(configuration: .default, policy: .default)
/// let transport = session.transport(with: .authenticated(by: auth), .retry(), .validatingStatus())
/// let loadProduct: (Product.ID) -> Future<Product> = chain(chain(Endpoint.product, to: networking(from: transport)), to: Future.decoded)
/// ```
///
/// Make one per configuration and keep it for as long as you send requests (an app keeps one
/// for its API; a test makes one per test). Every transport it gives sends through its one
/// URLSession, so requests share its connections and reading ``transport`` builds nothing. The
/// session lives for as long as you, or a transport made from it, hold it; once both are gone,
/// it lets its requests in flight finish and closes its connections.
///
/// Requests go through the package's own session delegate, so that every platform behaves the
/// same, as ``policy`` decides:
/// - Redirects are followed by
///   ``RedirectPolicy/follow(maximumHops:allowingInsecureRedirects:allowingCrossOriginBodies:)``:
///   at most 20 hops; 307 and 308 keep the method and the body, but a body never goes to
///   another origin (``TransportError/crossOriginBody(status:from:to:)``); credentials
///   (`Authorization`, `Cookie`, API-key headers…) and routing headers (`Host`,
///   `X-Forwarded-*`…) never cross to another origin; a redirect from HTTPS to HTTP fails with
///   ``TransportError/insecureRedirect(from:to:)``.
/// - A 401 or 407 reaches the caller as that response, with its headers and body, whatever its
///   `WWW-Authenticate`; credentials are never sent in answer to a challenge. Server trust stays
///   the platform's: nothing turns TLS verification off.
/// - A body is kept in memory up to 64 MiB (decoded); a larger one is cancelled while it arrives
///   and fails with ``TransportError/responseTooLarge(limit:url:)``.
/// - Cancelling the calling task cancels the request at once, and it fails with
///   `CancellationError`.
/// - Every request it is handed, and every redirect hop's, is checked before a byte is sent
///   (with the configuration's `httpAdditionalHeaders`): a method or header name that is not an
///   HTTP token, a header value with CR, LF, NUL or another control character, or a URL that is
///   not `http`/`https` with a host fails with a ``TransportError`` naming the part (never a
///   header's value), and a response with conflicting `Content-Length` values fails with
///   ``TransportError/invalidContentLength(_:url:)``.
///
/// ## A stack
///
/// ``transport(with:)-(Composer...)`` wraps the session's transport in composers. Name the parts
/// you want, in any order: the stack puts each at its ``Composer/Place``, the order written once,
/// with the reason for each position, in ``Composer``. There is no other way to build a stack,
/// so every stack is in that order.
///
/// ## In tests
///
/// ``init(sending:)`` makes a session over any transport, a stub in a test, say: the same
/// stacks, with no server.
public final class NetworkSession: Sendable {
    /// Redirects, the response size limit and secret headers: what the transport under every
    /// stack of this session allows.
    public let policy: TransportPolicy

    /// The package session that sends, or `nil` for a session over a transport of your own.
    let package: PackageSession?

    /// The function at the bottom of every stack of this session.
    private let base: Transport

    /// The package's session as a ``DirectTransport``; `nil` over a transport of the caller's.
    private let direct: DirectTransport?

    /// Makes a session from `configuration`, with its own URLSession and the package's delegate.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// configuration.httpAdditionalHeaders = ["User-Agent": "Shop/1.0"]
    /// let session = NetworkSession(configuration: configuration, policy: TransportPolicy(redirects: .never))
    /// ```
    ///
    /// The configuration is copied: changing it afterwards changes nothing. Its URL cache,
    /// cookie storage, time limits, additional headers and protocol settings are the session's.
    ///
    /// - Parameters:
    ///   - configuration: The URLSession configuration; `.default` unless you say.
    ///   - policy: What the transport allows; ``TransportPolicy/default`` unless you say.
    public convenience init(configuration: URLSessionConfiguration = .default, policy: TransportPolicy = .default) {
        self.init(
            package: PackageSession(configuration: configuration),
            policy: policy,
            configurationProblem: WireCheck.problem(inAdditionalHeaders: configuration.httpAdditionalHeaders)
        )
    }

    /// Makes a session whose stacks send through `transport`: a stub in a test, or a function
    /// of your own at the bottom of the stack.
    ///
    /// ```swift
    /// let session = NetworkSession(sending: stubTransport(data: productJSON))
    /// let transport = session.transport(with: .retry(), .validatingStatus())
    /// ```
    ///
    /// The composers behave as on any session. What the package's delegate does (the
    /// ``policy``'s redirects and size limit, the checks before the wire) is `transport`'s to do.
    ///
    /// - Parameter transport: The function at the bottom of every stack.
    public init(sending transport: @escaping Transport) {
        policy = .default
        package = nil
        base = transport
        direct = nil
    }

    /// A session over `direct`, a transport that gives futures: for tests of the composers'
    /// direct forms, with no server.
    init(sendingDirectly direct: @escaping DirectTransport) {
        policy = .default
        package = nil
        self.direct = direct
        base = TransportBridge.awaiting(direct)
    }

    /// A session over `package`; every request first meets `configurationProblem`, if any.
    init(package: PackageSession, policy: TransportPolicy, configurationProblem: TransportError?) {
        self.policy = policy
        self.package = package
        let direct: DirectTransport = { request, context in
            if let configurationProblem {
                return Future(error: configurationProblem)
            }
            return package.start(request, policy: policy, context: context)
        }
        self.direct = direct
        base = TransportBridge.awaiting(direct)
    }

    /// The session that stands in for `URLSession.shared`: its configuration, the default
    /// policy, and one URLSession of the package's, shared by the whole process.
    public static let shared = NetworkSession(
        package: .shared, policy: .default, configurationProblem: WireCheck.sharedSessionProblem
    )

    /// A copy of the session's configuration: its cookie storage, URL cache, time limits and
    /// headers. A session over a transport of your own (``init(sending:)``) has none, and gives
    /// an ephemeral configuration.
    ///
    /// ```swift
    /// let cache = ResponseCache(cookieStorage: session.configuration.httpCookieStorage)
    /// ```
    public var configuration: URLSessionConfiguration {
        package?.session.configuration ?? .ephemeral
    }

    /// The session's transport, with no composers: the base function that stacks wrap.
    ///
    /// ```swift
    /// let (data, response) = try await session.transport(URLRequest(url: url))
    /// ```
    public var transport: Transport {
        base
    }

    /// The session's transport wrapped in `composers`, each at its ``Composer/Place``: the stack
    /// is in the right order whatever order you list it in (see ``Composer`` for the order and
    /// its reasons).
    ///
    /// ```swift
    /// let transport = session.transport(with: .validatingStatus(), .retry(), .logged(to: log))
    /// // Runs as: logged → validatingStatus → retry → the session.
    /// ```
    ///
    /// - Parameter composers: The composers, in any order.
    /// - Returns: The composed transport.
    public func transport(with composers: Composer...) -> Transport {
        transport(with: composers)
    }

    /// The session's transport wrapped in `composers`, each at its ``Composer/Place``, whatever
    /// order the array lists them in.
    ///
    /// - Parameter composers: The composers, in any order.
    /// - Returns: The composed transport.
    public func transport(with composers: [Composer]) -> Transport {
        composers.isEmpty ? base : Composer.stack(composers, over: base, direct: direct).transport
    }

    /// A networking function over the session's transport wrapped in `composers`: what
    /// ``networking(from:)`` makes of ``transport(with:)-(Composer...)``, with the same
    /// answers, errors and status check, and the shortest path there is.
    ///
    /// ```swift
    /// let send = session.networking(with: .retry(), .validatingStatus())
    /// let product: Future<Product> = send(.product(withID: 7)).decoded()
    /// ```
    ///
    /// When no composer of the stack needs a task of its own (the package's own need none but
    /// `cached(in:)`, `delayed(by:)`, `cancellable(in:)` and `modifyingRequest(_:)`; a composer
    /// you make with ``Composer/init(at:_:)`` is awaited), a call starts its request on the
    /// calling thread and the session's delegate completes the
    /// returned future from the request's last callback: no task, and a caller that awaits the
    /// future resumes once, as with URLSession's own `data(for:)`. Observers run on the thread
    /// that completes the future, as for any future: on Apple platforms the session's callback
    /// thread; on Linux a global dispatch queue's, because there the callbacks of every
    /// URLSession of the process run on one serial queue, which an observer must never hold up
    /// or wait for. Hand long work elsewhere (`observe(on:_:)`), or await.
    /// A retry's wait between attempts and a credential refresh each run in a task of their
    /// own; the request itself needs none. With any other composer in the stack, it and those
    /// above it are awaited, in a task per call, as ``networking(from:)`` runs them.
    ///
    /// - Parameter composers: The composers, in any order.
    /// - Returns: A function from endpoints to the futures of their bodies.
    public func networking(with composers: Composer...) -> Networking {
        networking(with: composers)
    }

    /// A networking function over the session's transport wrapped in `composers`, whatever
    /// order the array lists them in; see ``networking(with:)-(Composer...)``.
    ///
    /// - Parameter composers: The composers, in any order.
    /// - Returns: A function from endpoints to the futures of their bodies.
    public func networking(with composers: [Composer]) -> Networking {
        if composers.isEmpty {
            return call
        }
        let (transport, direct) = Composer.stack(composers, over: base, direct: direct)
        guard let direct else { return FunctionalNetworking.networking(from: transport) }
        return { endpoint in checkedCall(endpoint, through: direct) }
    }

    /// The call for `endpoint` through the session's transport with no composers.
    func call(_ endpoint: Endpoint) -> Future<Data> {
        guard let direct else {
            return FunctionalNetworking.networking(from: base)(endpoint)
        }
        return checkedCall(endpoint, through: direct)
    }
}
