import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession helpers whose every request is bounded by a short timeout.
enum HTTPClient {
    /// An ephemeral session (no shared cookies or cache) with a short request timeout.
    ///
    /// Keep `timeout` at one second or more: swift-corelibs-foundation truncates it to
    /// whole seconds, so a sub-second timeout fails every request at once.
    static func makeSession(
        timeout: TimeInterval = 5,
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
