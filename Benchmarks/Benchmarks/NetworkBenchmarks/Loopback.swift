// The server and sessions of benchmark 8.

import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The requests in one operation of benchmark 8.
let batchSize = 1_000

/// A `LoopbackServer` that answers every request with the same small JSON body (keep-alive),
/// a session for it, and our stack over that session; started by a benchmark's `setup` and
/// stopped by its `teardown`.
///
/// Both sides of benchmark 8 use a fixture of their own, made the same way: the same server,
/// the same body, the same session configuration.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class LoopbackFixture: @unchecked Sendable {
    /// What a started fixture holds.
    struct Running: Sendable {
        let server: LoopbackServer
        let session: URLSession
        /// Our side: `networking(from:)` over the session's `transport` wrapped in the ten
        /// composers of ``Stack`` (the credential goes to the server's origin).
        let send: @Sendable (Endpoint) -> Future<Data>

        /// Our side's endpoint for request `index`: `GET /products/<index>`.
        func endpoint(_ index: Int) -> Endpoint {
            Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: server.port), path: "/products/\(index)")
        }

        /// The raw side's request for the same URL.
        func request(_ index: Int) -> URLRequest {
            URLRequest(url: server.url(for: "/products/\(index)"))
        }
    }

    /// The body of every response.
    static let body = #"{"id":7,"name":"iPad Pro","price":1099.0,"currency":"EUR","inStock":true}"#

    private let lock = NSLock()
    private var running: Running?

    /// Starts the server, makes the session and our stack over it.
    func start() throws {
        let response = LoopbackServer.Response.json(Self.body)
        let server = try LoopbackServer { _ in response }
        let session = URLSession(configuration: Self.configuration())
        let origin = Origin(scheme: "http", host: "127.0.0.1", port: server.port)
        let transport = NetworkSession(sending: session.transport).transport(with: Stack.composers(authenticating: origin))
        let started = Running(server: server, session: session, send: networking(from: transport))
        lock.withLock { running = started }
    }

    /// Stops the server and invalidates the session.
    func stop() {
        let stopped = lock.withLock {
            defer { running = nil }
            return running
        }
        stopped?.session.invalidateAndCancel()
        stopped?.server.stop()
    }

    /// The started fixture.
    func current() throws -> Running {
        guard let running = lock.withLock({ running }) else {
            throw FixtureError.notStarted
        }
        return running
    }

    /// Forgets the requests the server recorded (it keeps every one until taken), so that its
    /// memory does not grow from batch to batch. Not measured.
    func forgetRecordedRequests() async throws {
        let server = try current().server
        while await server.takeRequest(timeout: .zero) != nil {}
    }

    /// The configuration of both sides' sessions: ephemeral, no cache, keep-alive with at most
    /// ``Stack/maxConcurrent`` connections to the server, and every request bounded in time.
    static func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 30
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = Stack.maxConcurrent
        return configuration
    }
}

/// Why a benchmark of 8 or 11 could not run or check its operation.
enum FixtureError: Error {
    /// The benchmark ran before its setup.
    case notStarted
    /// The benchmark's file could not be made.
    case cannotWrite(String)
    /// The answer was not a 2xx HTTP response.
    case unexpectedResponse
    /// The server did not receive the whole file, byte for byte.
    case uploadNotReceived
    /// A download came out with another size (the size it had).
    case wrongSize(Int)
}
