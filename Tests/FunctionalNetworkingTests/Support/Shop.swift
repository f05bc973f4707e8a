import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seed's model.
struct Product: Codable, Equatable, Sendable {
    typealias ID = Int
    let id: ID
    let name: String
}

/// A URLSession for tests: ephemeral, nothing cached, every request bounded by a timeout, and
/// redirect-guarded (credentials never follow a redirect to another origin), as the package
/// recommends for any session that carries credentials.
func makeTestSession(timeout: TimeInterval = 30) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpMaximumConnectionsPerHost = 64
    return URLSession(configuration: configuration)
}

/// A LoopbackServer that serves a tiny shop: `/products/<id>` for ids 1…9, 404 otherwise.
func makeShopServer() throws -> LoopbackServer {
    try LoopbackServer { request in
        let parts = request.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "products", let id = Int(parts[1]), (1...9).contains(id) else {
            return .json(#"{"message":"No such product"}"#, status: 404)
        }
        let names = [7: "iPad Pro"]
        return .json(#"{"id":\#(id),"name":"\#(names[id] ?? "Product \(id)")"}"#)
    }
}

extension Future {
    /// The result, bounded by a real-time limit so that a bug fails the test instead of hanging
    /// (four times `limit` under a sanitizer: see ``underSanitizer(_:)``).
    func result(within limit: Duration = .seconds(30)) async -> Result<Value, any Error> {
        do {
            return .success(try await timeout(after: underSanitizer(limit)).value)
        } catch {
            return .failure(error)
        }
    }

    /// The value, bounded by a real-time limit (four times `limit` under a sanitizer).
    func value(within limit: Duration = .seconds(30)) async throws -> Value {
        try await timeout(after: underSanitizer(limit)).value
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        try? get()
    }
}

/// A ``NetworkSession`` of the configuration ``makeTestSession(timeout:)`` uses, under `policy`.
func makeTestNetworkSession(timeout: TimeInterval = 30, policy: TransportPolicy = .default) -> NetworkSession {
    NetworkSession(configuration: makeTestSession(timeout: timeout).configuration, policy: policy)
}
