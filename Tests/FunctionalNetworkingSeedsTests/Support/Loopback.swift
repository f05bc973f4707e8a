import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession for tests: ephemeral, nothing cached, every request bounded by a timeout.
func makeTestSession(timeout: TimeInterval = 30) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
}

/// A server that answers with the `Authorization` header it received, or "-".
func makeAuthorizationEchoServer() throws -> LoopbackServer {
    try LoopbackServer { request in .text(request.header("Authorization") ?? "-") }
}

/// A transport that answers with the `Authorization` header it was handed, or "none".
let echoAuthorization: NetworkClosureType = stubTransport { request in
    (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
}

/// Runs `body` with a real-time limit, so that a sample that waits on the network fails its
/// test instead of hanging it.
func withTimeLimit<T: Sendable>(
    _ limit: Duration = .seconds(30),
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await Future { try await body() }.timeout(after: limit).value
}

extension Result {
    /// The value, or `nil` for a failure.
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A model for the declarative tests, as the core's tests have it.
struct Product: Codable, Equatable, Sendable {
    typealias ID = Int
    let id: ID
    let name: String
}

extension Future {
    /// The result, bounded by a real-time limit so that a bug fails the test instead of hanging.
    func result(within limit: Duration = .seconds(30)) async -> Result<Value, any Error> {
        do {
            return .success(try await timeout(after: limit).value)
        } catch {
            return .failure(error)
        }
    }

    /// The value, bounded by a real-time limit so that a bug fails the test instead of hanging.
    func value(within limit: Duration = .seconds(30)) async throws -> Value {
        try await timeout(after: limit).value
    }
}
