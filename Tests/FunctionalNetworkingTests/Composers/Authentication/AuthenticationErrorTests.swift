import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("AuthenticationError")
struct AuthenticationErrorTests {
    /// An authenticator for `api` whose refresh posts to `tokenURL` through `tokenTransport`.
    private static func refreshing(_ api: LoopbackServer, through tokenTransport: @escaping Transport, tokenURL: URL) -> Authenticator {
        Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: api.baseURL)!],
            refresh: { _ in
                let send = networking(from: tokenTransport)
                _ = try await send(Endpoint(method: .post, baseURL: tokenURL)).value
                return .bearer("fresh")
            }
        )
    }

    @Test func aRefreshTheTokenEndpointRejectedKeepsItsStatusError() async throws {
        let tokens = try LoopbackServer { _ in .json(#"{"error":"invalid_grant"}"#, status: 400) }
        defer { tokens.stop() }
        let api = try LoopbackServer { _ in .status(401) }
        defer { api.stop() }
        let session = makeTestNetworkSession()
        let auth = Self.refreshing(api, through: session.transport(with: .validatingStatus()), tokenURL: tokens.url(for: "/token"))
        let transport = session.transport(with: .authenticated(by: auth), .validatingStatus())
        let error = try #require(
            await #expect(throws: AuthenticationError.self) { try await transport(URLRequest(url: api.url(for: "/me"))) })
        let cause = try #require(error.underlyingError as? HTTPStatusError)
        #expect(cause.status == 400)
        guard case .refreshFailed(let underlying as HTTPStatusError) = error else {
            Issue.record("expected refreshFailed with an HTTPStatusError, got \(error)")
            return
        }
        #expect(underlying.status == 400)
        #expect(
            error.description == "Refreshing the credential failed: The server answered 400 (Bad Request) for "
                + #"http://127.0.0.1:\#(tokens.port)/token. Body: {"error":"invalid_grant"}"#
        )
        #expect((error as any Error).localizedDescription == error.description)
    }

    @Test func aRefreshThatCouldNotReachTheTokenEndpointKeepsItsNetworkFailure() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let api = try LoopbackServer { _ in .status(401) }
        defer { api.stop() }
        let session = makeTestNetworkSession()
        let auth = Self.refreshing(api, through: session.transport, tokenURL: refusing.baseURL.appendingPathComponent("token"))
        let transport = session.transport(with: .authenticated(by: auth), .validatingStatus())
        let error = try #require(
            await #expect(throws: AuthenticationError.self) { try await transport(URLRequest(url: api.url(for: "/me"))) })
        let cause = try #require(error.underlyingError as? TransportError)
        #expect(cause.urlError?.code == .cannotConnectToHost)
        #expect(
            error.description == "Refreshing the credential failed: The request to http://127.0.0.1:\(refusing.port)/token "
                + "could not connect: the connection was refused, or the server could not be reached."
        )
    }

    @Test func errorsCompareByCaseAndWords() {
        struct Offline: Error {}
        #expect(AuthenticationError.refreshFailed(Offline()) == .refreshFailed(Offline()))
        #expect(AuthenticationError.refreshFailed(Offline()) != .refreshFailed(CancellationError()))
        #expect(AuthenticationError.refreshLimitReached(3, within: .seconds(60)) == .refreshLimitReached(3, within: .seconds(60)))
        #expect(AuthenticationError.refreshLimitReached(3, within: .seconds(60)).underlyingError == nil)
    }

    @Test func dumpShowsTheWordsNotTheFieldsOfTheRefreshsError() {
        struct TokenRejected: Error, CustomStringConvertible {
            let refreshToken = "r3fresh-S3CRET"
            var description: String { "the token was rejected" }
        }
        let error = AuthenticationError.refreshFailed(TokenRejected())
        var dumped = ""
        dump(error, to: &dumped)
        #expect(!dumped.contains("S3CRET"))
        #expect(dumped.contains("Refreshing the credential failed: the token was rejected"))
        #expect(String(reflecting: error) == error.description)
    }
}
