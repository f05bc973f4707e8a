import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// This session as a ``Transport``, through the ``NetworkSession`` that stands for it: the
    /// base function every stack wraps, `(URLRequest) async throws -> (Data, URLResponse)`.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport
    /// let (data, response) = try await transport(URLRequest(url: url))
    /// ```
    ///
    /// One URLSession always maps to one ``NetworkSession`` with the default
    /// ``TransportPolicy``: ``NetworkSession/shared`` for `URLSession.shared`, and for any other
    /// session one built from its configuration at its first use and kept for as long as the
    /// session lives. Every read of `transport`, and every ``request(_:)``, sends through it, so
    /// reading the property builds nothing and the requests share connections. It behaves as
    /// ``NetworkSession`` describes (its delegate, not this session's, is called).
    ///
    /// For composers or another policy, make a ``NetworkSession`` of your own and keep it.
    public var transport: Transport {
        NetworkSession.standing(for: self).transport
    }

    /// Starts the request for `endpoint` and returns the future of its body: a
    /// ``Networking`` function.
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
    ///
    /// Every call on one session goes through the one ``NetworkSession`` that stands for it (see
    /// ``transport``), so calls one after another reuse its connections.
    public func request(_ endpoint: Endpoint) -> Future<Data> {
        NetworkSession.standing(for: self).call(endpoint)
    }
}

extension NetworkSession {
    /// The network session that stands for `session`: ``shared`` for `URLSession.shared`, and for
    /// any other the one ``PackageSessionRegistry`` keeps for it.
    static func standing(for session: URLSession) -> NetworkSession {
        if session === URLSession.shared {
            return shared
        }
        return PackageSessionRegistry.process.network(for: session)
    }
}
