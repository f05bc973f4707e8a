import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Composer+Authentication")
struct AuthenticationTests {
    /// A server that accepts only `Bearer <valid>` and counts what it saw.
    func makeProtectedServer(valid: @escaping @Sendable () -> String) throws -> LoopbackServer {
        try LoopbackServer { request in
            request.header("Authorization") == "Bearer \(valid())"
                ? .text("hello \(request.path)")
                : .text("who are you?", status: 401)
        }
    }

    @Test func fiveConcurrent401sCauseExactlyOneRefreshAndAllSucceed() async throws {
        let server = try makeProtectedServer(valid: { "fresh" })
        defer { server.stop() }
        let refreshes = Counter()
        let gate = Promise<Void>()
        let store = CredentialStore(.bearer("stale"))
        let auth = Authenticator(
            store: store,
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                try await gate.value  // hold the refresh until all five have met the 401
                return .bearer("fresh")
            },
            clock: TestClock()
        )
        let transport = makeTestSession().transport(with: .authenticated(by: auth), .validatingStatus())
        let calls = (0..<5).map { index in
            Task { try await transport(URLRequest(url: server.url(for: "/item/\(index)"))) }
        }
        for _ in 0..<5 {
            _ = await server.takeRequest(timeout: .seconds(30))
        }
        gate.resolve()
        for (index, call) in calls.enumerated() {
            #expect(try await call.value.0 == Data("hello /item/\(index)".utf8))
        }
        #expect(refreshes.value == 1)
        #expect(await store.credential == .bearer("fresh"))
    }

    @Test func aRequestWithAnOlderCredentialIsRetriedWithTheNewerOneWithoutRefreshing() async throws {
        let server = try makeProtectedServer(valid: { "new" })
        defer { server.stop() }
        let store = CredentialStore(.bearer("old"))
        let refreshes = Counter()
        let auth = Authenticator(
            store: store, allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                return .bearer("new")
            }
        )
        // Someone stores a newer credential while this request is out with the old one.
        let base = makeTestSession().transport
        let racing: Transport = { request in
            let answer = try await base(request)
            await store.store(.bearer("new"))
            return answer
        }
        let transport = compose(racing, with: .authenticated(by: auth))
        let (data, _) = try await transport(URLRequest(url: server.url(for: "/me")))
        #expect(data == Data("hello /me".utf8))
        #expect(refreshes.value == 0)
    }

    @Test func aFailedRefreshFailsEveryWaiterWithAClearError() async throws {
        let server = try makeProtectedServer(valid: { "never" })
        defer { server.stop() }
        struct Offline: Error {}
        let gate = Promise<Void>()
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                try await gate.value
                throw Offline()
            }
        )
        let transport = makeTestSession().transport(with: .authenticated(by: auth))
        let calls = (0..<3).map { _ in Task { try await transport(URLRequest(url: server.url(for: "/"))) } }
        for _ in 0..<3 { _ = await server.takeRequest(timeout: .seconds(30)) }
        gate.resolve()
        for call in calls {
            let error = await #expect(throws: AuthenticationError.self) { try await call.value }
            #expect(error?.description.hasPrefix("Refreshing the credential failed") == true)
        }
    }

    @Test func aServerThatAlwaysSays401CausesBoundedRefreshesThenADistinctError() async throws {
        let server = try makeProtectedServer(valid: { "unreachable" })
        defer { server.stop() }
        let refreshes = Counter()
        let auth = Authenticator(
            store: CredentialStore(.bearer("t0")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in .bearer("t\(refreshes.increment())") },
            refreshLimit: 3,
            refreshWindow: .seconds(60),
            clock: TestClock()
        )
        let transport = makeTestSession().transport(with: .authenticated(by: auth), .validatingStatus())
        var outcomes: [String] = []
        for _ in 0..<10 {
            do {
                _ = try await transport(URLRequest(url: server.url(for: "/")))
                outcomes.append("ok")
            } catch let error as HTTPStatusError {
                outcomes.append("\(error.status)")
            } catch let error as AuthenticationError {
                outcomes.append(error == .refreshLimitReached(3, within: .seconds(60)) ? "limit" : "other")
            }
        }
        #expect(refreshes.value == 3)
        #expect(outcomes == ["401", "401", "401"] + Array(repeating: "limit", count: 7))
        #expect(server.requestCount == 3 * 2 + 7)
    }

    @Test func theTokenNeverReachesAnOriginTheCallerDidNotAllow() async throws {
        let allowed = try LoopbackServer { request in .text(request.header("Authorization") ?? "none") }
        defer { allowed.stop() }
        let other = try LoopbackServer { request in .text(request.header("Authorization") ?? "none") }
        defer { other.stop() }
        let auth = Authenticator(store: CredentialStore(.bearer("s3cr3t")), allowedOrigins: [Origin(url: allowed.baseURL)!])
        let transport = makeTestSession().transport(with: .authenticated(by: auth))
        #expect(try await transport(URLRequest(url: allowed.url(for: "/"))).0 == Data("Bearer s3cr3t".utf8))
        #expect(try await transport(URLRequest(url: other.url(for: "/"))).0 == Data("none".utf8))
    }

    @Test func theTokenNeverFollowsARedirectToAnotherOrigin() async throws {
        let other = try LoopbackServer { request in
            .text("authorization=\(request.header("Authorization") ?? "none") cookie=\(request.header("Cookie") ?? "none")")
        }
        defer { other.stop() }
        let allowed = try LoopbackServer { request in
            request.path == "/same"
                ? .text("same-origin \(request.header("Authorization") ?? "none")") : .redirect(to: other.url(for: "/landing"))
        }
        defer { allowed.stop() }
        let auth = Authenticator(store: CredentialStore(.bearer("s3cr3t")), allowedOrigins: [Origin(url: allowed.baseURL)!])
        let transport = makeTestSession().transport(with: .authenticated(by: auth))
        var request = URLRequest(url: allowed.url(for: "/go"))
        request.setValue("session=abc", forHTTPHeaderField: "Cookie")
        let (data, _) = try await transport(request)
        #expect(String(decoding: data, as: UTF8.self) == "authorization=none cookie=none")
        let recorded = await other.takeRequest(timeout: .seconds(30))
        #expect(recorded?.header("Authorization") == nil)
    }

    @Test func capturingCredentialStoresALoginsToken() async throws {
        let server = try LoopbackServer { request in
            request.path == "/login" ? .json(#"{"token":"from-login"}"#) : .text(request.header("Authorization") ?? "none")
        }
        defer { server.stop() }
        struct Login: Decodable { let token: String }
        let store = CredentialStore()
        let auth = Authenticator(store: store, allowedOrigins: [Origin(url: server.baseURL)!])
        let transport = makeTestSession().transport(
            with: .capturingCredential(into: store) { request, data, _ in
                request.url?.path == "/login" ? .bearer(try JSONDecoder().decode(Login.self, from: data).token) : nil
            },
            .authenticated(by: auth)
        )
        var login = URLRequest(url: server.url(for: "/login"))
        login.httpMethod = "POST"
        _ = try await transport(login)
        #expect(await store.credential == .bearer("from-login"))
        #expect(try await transport(URLRequest(url: server.url(for: "/me"))).0 == Data("Bearer from-login".utf8))
    }

    @Test func aRequestSentWhileSignedOutNeverRefreshesAndARefreshNeverUndoesASignOut() async throws {
        let server = try makeProtectedServer(valid: { "fresh" })
        defer { server.stop() }
        let refreshes = Counter()
        let store = CredentialStore()
        let auth = Authenticator(
            store: store, allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                return .bearer("fresh")
            }
        )
        let session = makeTestSession().transport
        let transport = compose(session, with: .authenticated(by: auth))
        let (_, signedOut) = try await transport(URLRequest(url: server.url(for: "/")))
        #expect((signedOut as? HTTPURLResponse)?.statusCode == 401)
        #expect(refreshes.value == 0)

        // Signed in with a stale token, then signed out while the request is out.
        await store.store(.bearer("stale"))
        let signingOut: Transport = { request in
            let answer = try await session(request)
            await store.store(nil)
            return answer
        }
        let (_, response) = try await compose(signingOut, with: .authenticated(by: auth))(URLRequest(url: server.url(for: "/")))
        #expect((response as? HTTPURLResponse)?.statusCode == 401)
        #expect(refreshes.value == 0)
        #expect(await store.credential == nil)
    }

    @Test func basicCredentialsAreSentEncodedAndNeverPrinted() {
        let credential = Credential.basic(username: "ada", password: "pa55word")
        #expect(credential.authorizationValue == "Basic YWRhOnBhNTV3b3Jk")
        #expect(!credential.description.contains("pa55word"))
        #expect(!"\(credential)".contains("pa55word"))
        #expect(!Credential.bearer("s3cr3t").description.contains("s3cr3t"))
    }

    @Test func originsCompareSchemeHostAndPortWithDefaultPorts() {
        #expect(Origin(url: URL(string: "https://API.example.com/x")!) == Origin(url: URL(string: "https://api.example.com:443/y")!))
        #expect(Origin(url: URL(string: "http://api.example.com")!) != Origin(url: URL(string: "https://api.example.com")!))
        #expect(Origin(url: URL(string: "http://127.0.0.1:8080")!) != Origin(url: URL(string: "http://127.0.0.1:8081")!))
        #expect(Origin(url: URL(string: "/relative")) == nil)
    }
}
