import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Doc comment samples: AuthenticationError.swift")
struct AuthenticationErrorDocCommentSamplesTests {
    /// A stack whose token endpoint fails as `refresh` says, over a server that answers 401.
    private static func transport(refreshing refresh: @escaping @Sendable (Credential?) async throws -> Credential) throws
        -> (Transport, LoopbackServer)
    {
        let server = try LoopbackServer { _ in .status(401) }
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")), allowedOrigins: [Origin(url: server.baseURL)!], refresh: refresh)
        return (makeTestNetworkSession().transport(with: .authenticated(by: auth)), server)
    }

    /// Runs the sample over `transport`; returns what it did.
    private static func handle(_ transport: Transport, _ request: URLRequest) async throws -> String {
        let did = Collected<String>()
        func signOut() { did.append("signed out") }
        func showOffline() { did.append("offline") }
        do {
            _ = try await transport(request)
        } catch AuthenticationError.refreshFailed(let cause as HTTPStatusError) where [400, 401].contains(cause.status) {
            signOut()
        } catch let error as AuthenticationError where error.underlyingError is TransportError {
            showOffline()
        }
        return did.values.joined()
    }

    @Test func aRejectedRefreshTokenSignsOutAndANetworkThatIsDownShowsOffline() async throws {
        let (rejected, first) = try Self.transport { _ in throw HTTPStatusError(status: 400) }
        defer { first.stop() }
        #expect(try await Self.handle(rejected, URLRequest(url: first.url(for: "/me"))) == "signed out")

        let down = URLError(.notConnectedToInternet)
        let (offline, second) = try Self.transport { _ in
            throw TransportError.networkFailure(down, url: "https://auth.example/token")
        }
        defer { second.stop() }
        #expect(try await Self.handle(offline, URLRequest(url: second.url(for: "/me"))) == "offline")
    }
}

@Suite("Doc comment samples: CredentialsDroppedByRedirect.swift")
struct CredentialsDroppedByRedirectDocCommentSamplesTests {
    @Test func aRedirectThatDroppedTheTokenIsCaughtAndItsFinalURLKept() async throws {
        let server = try LoopbackServer { request in
            request.header("Authorization") == nil ? .status(401) : .text("ada")
        }
        defer { server.stop() }
        let elsewhere = try #require(URL(string: "http://localhost:\(server.port)/account"))
        let front = try LoopbackServer { _ in .redirect(to: elsewhere) }
        defer { front.stop() }
        let send = networking(from: makeTestNetworkSession().transport(with: .validatingStatus()))
        let account = Endpoint(baseURL: front.baseURL, path: "/account").setting(header: "Authorization", to: "Bearer t0ken")
        var movedTo: URL?
        // Bounded by the test session's 30 s limits.
        do {
            _ = try await send(account).value
        } catch let error as HTTPStatusError where error.credentialsDroppedByRedirect != nil {
            // The server redirected the request elsewhere; send it to the final URL instead.
            movedTo = error.url
        }
        #expect(movedTo == elsewhere)
    }
}

@Suite("Doc comment samples: TransportError.networkFailure")
struct TransportErrorNetworkFailureDocCommentSamplesTests {
    @Test func aTimedOutRequestIsCaughtByItsURLErrorCode() async throws {
        let server = try LoopbackServer { _ in .fault(.stall) }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/slow"))
        request.timeoutInterval = 1
        let transport = makeTestNetworkSession().transport
        let later = Counter()
        func retryLater() { later.increment() }
        // Bounded by the request's 1 s time limit.
        do {
            _ = try await transport(request)
        } catch let error as TransportError where error.urlError?.code == .timedOut {
            retryLater()
        }
        #expect(later.value == 1)
    }
}
