import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The function at the bottom of every network stack: a request in, data and a response out.
///
/// `URLSession.shared.data(for:)` is one; `URLSession.transport` gives it as a value.
/// Composers take a `Transport` and return a `Transport`, so that whatever you compose, in the
/// end you still hold this same function:
///
/// ```swift
/// let transport: Transport = URLSession.shared.transport
/// let (data, response) = try await transport(URLRequest(url: url))
/// ```
public typealias Transport = @Sendable (URLRequest) async throws -> (Data, URLResponse)

/// The seed's name for ``Transport``: `(URLRequest) async throws -> (Data, URLResponse)`.
public typealias NetworkClosureType = Transport

/// Sundell's networking function: an endpoint in, the future of its body out.
///
/// `URLSession.shared.request` has this shape, so it can be passed as a value; tests pass a
/// closure that returns a ready future instead:
///
/// ```swift
/// final class ProductLoader {
///     private let networking: Networking
///     init(networking: @escaping Networking = URLSession.shared.request) {
///         self.networking = networking
///     }
/// }
/// ```
public typealias Networking = (Endpoint) -> Future<Data>

extension URLSession {
    /// This session's `data(for:)` as a ``Transport`` value, the base function that composers
    /// wrap.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport
    /// ```
    ///
    /// Redirects are followed, but a redirect that leaves the request's origin (scheme, host,
    /// port) never carries `Authorization`, `Cookie` or `Proxy-Authorization` along — on Apple
    /// platforms for any session; on Linux, whose URLSession ignores per-request delegates for
    /// redirects, for sessions made by ``redirectGuarded(configuration:)``.
    public var transport: Transport {
        { request in try await self.data(for: request, delegate: RedirectGuard()) }
    }

    /// A session that follows redirects but never carries `Authorization`, `Cookie` or
    /// `Proxy-Authorization` to another origin, on every platform.
    ///
    /// Use it under ``Composer/authenticated(by:)``, or whenever requests carry credentials:
    ///
    /// ```swift
    /// let session = URLSession.redirectGuarded()
    /// let transport = session.transport(with: .authenticated(by: auth))
    /// ```
    ///
    /// - Parameter configuration: The session's configuration; `.default` unless you pass one.
    /// - Returns: A new session whose delegate strips credentials on cross-origin redirects.
    public static func redirectGuarded(configuration: URLSessionConfiguration = .default) -> URLSession {
        URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }

    /// Starts the request for `endpoint` and returns the future of its body.
    ///
    /// A 2xx response gives the body; any other status rejects the future with
    /// ``HTTPStatusError`` (status, headers and body). An endpoint that cannot make a URL
    /// rejects it with ``Endpoint/Error/invalidURL``. Cancelling the future cancels the request,
    /// and a request cancelled any other way is reported as `CancellationError` too.
    ///
    /// ```swift
    /// let networking: Networking = URLSession.shared.request
    /// let product: Future<Product> = networking(.product(withID: 7)).decoded()
    /// ```
    public func request(_ endpoint: Endpoint) -> Future<Data> {
        networking(from: transport)(endpoint)
    }
}

/// Turns a ``Transport`` (a composed one, say) into a ``Networking`` function.
///
/// Each call makes the endpoint's `URLRequest`, runs it through `transport` in a `Task`, and
/// checks the status: 2xx gives the body, any other status rejects with ``HTTPStatusError``.
/// Cancelling a returned future cancels its task, and `URLError.cancelled` is reported as
/// `CancellationError`.
///
/// ```swift
/// let transport = URLSession.shared.transport(with: .retry(), .validatingStatus())
/// let send = networking(from: transport)
/// let product: Future<Product> = send(.product(withID: 7)).decoded()
/// ```
///
/// - Parameter transport: The function that sends requests.
/// - Returns: A function from endpoints to the futures of their bodies.
public func networking(from transport: @escaping Transport) -> @Sendable (Endpoint) -> Future<Data> {
    { endpoint in
        Future {
            let request = try endpoint.urlRequest()
            do {
                let (data, response) = try await transport(request)
                try HTTPStatusError.check(response, data: data)
                return data
            } catch let error as URLError where error.code == .cancelled {
                throw CancellationError()
            }
        }
    }
}
