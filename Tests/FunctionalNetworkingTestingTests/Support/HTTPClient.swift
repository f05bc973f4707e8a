import Foundation
import FunctionalNetworkingTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession helpers whose every request is bounded by a timeout.
enum HTTPClient {
    /// An ephemeral session (no shared cookies or cache) whose requests are bounded by a timeout
    /// generous enough for a loaded machine: a hung request fails the test, a slow one does not.
    ///
    /// Keep `timeout` at one second or more: swift-corelibs-foundation truncates it to
    /// whole seconds, so a sub-second timeout fails every request at once.
    static func makeSession(
        timeout: TimeInterval = 30,
        maxConnectionsPerHost: Int = 6
    ) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    /// Runs `body` with a new ``LoopbackServer`` (answering from its queue) and a session of
    /// ``makeSession(timeout:maxConnectionsPerHost:)``, then stops the server and invalidates
    /// the session, whether `body` returns or throws.
    static func withServer<Result>(
        _ body: (LoopbackServer, URLSession) async throws -> Result
    ) async throws -> Result {
        let server = try LoopbackServer()
        defer { server.stop() }
        let session = makeSession()
        defer { session.invalidateAndCancel() }
        return try await body(server, session)
    }

    /// Performs `request` and returns the body and the HTTP response.
    static func send(
        _ request: URLRequest,
        with session: URLSession
    ) async throws -> (body: Data, response: HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }

    /// GETs `url` and returns the body and the HTTP response.
    static func get(_ url: URL, with session: URLSession) async throws -> (body: Data, response: HTTPURLResponse) {
        try await send(URLRequest(url: url), with: session)
    }
}

extension Data {
    /// The bytes decoded as UTF-8.
    var text: String { String(decoding: self, as: UTF8.self) }
}
