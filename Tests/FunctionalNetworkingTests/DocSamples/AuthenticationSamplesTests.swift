import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/Authentication.md, as the article shows them,
// against LoopbackServers on 127.0.0.1.

/// A server that answers "hello" to `Authorization: Bearer <valid>` and 401 to anything else.
fileprivate func makeProtectedServer(valid: String) throws -> LoopbackServer {
    try LoopbackServer { request in
        request.header("Authorization") == "Bearer \(valid)" ? .text("hello") : .text("who are you?", status: 401)
    }
}

/// A server that answers with the `Authorization` header it received, or "-".
fileprivate func makeAuthorizationEchoServer() throws -> LoopbackServer {
    // Fresh for a minute, so that a cache keeps it.
    try LoopbackServer { request in .text(request.header("Authorization") ?? "-", headers: [.init("Cache-Control", "max-age=60")]) }
}

/// Keeps the last text given, from any thread.
fileprivate final class LastText: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    func set(_ value: String) { lock.withLock { text = value } }
    var value: String? { lock.withLock { text } }
}

@Suite("Samples: Authentication")
struct AuthenticationSamplesTests {
    @Test func theStoreHoldsTheCurrentCredentialUntilSignOut() async {
        let savedToken = "saved"

        let store = CredentialStore(.bearer(savedToken))
        await store.store(.basic(username: "ada", password: "s3cret"))  // signed in another way
        await store.store(nil)  // signed out

        #expect(await store.credential == nil)
        let basic = Credential.basic(username: "ada", password: "s3cret")
        #expect(basic.authorizationValue == "Basic YWRhOnMzY3JldA==")
        #expect(!basic.description.contains("s3cret"))
    }

    @Test func a401IsRefreshedOnceAndTheRequestSentAgainWithTheFreshToken() async throws {
        let server = try makeProtectedServer(valid: "fresh")
        defer { server.stop() }
        let apiURL = server.baseURL
        let store = CredentialStore(.bearer("stale"))
        let refreshes = Counter()
        @Sendable func renewToken() async throws -> String {
            refreshes.increment()
            return "fresh"
        }

        let auth = Authenticator(
            store: store,
            allowedOrigins: [Origin(url: apiURL)!],
            refresh: { stale in .bearer(try await renewToken()) }
        )
        let transport = NetworkSession.shared.transport(
            with:
                .authenticated(by: auth),
            .retry(),
            .validatingStatus()
        )

        let body = try await withDocSampleTimeLimit { try await transport(URLRequest(url: apiURL.appendingPathComponent("account"))).0 }
        #expect(body == Data("hello".utf8))
        #expect(refreshes.value == 1)
        #expect(await store.credential == .bearer("fresh"))
        #expect(server.requestCount == 2)
    }

    @Test func requestsThatMeetA401TogetherShareOneRefresh() async throws {
        let server = try makeProtectedServer(valid: "fresh")
        defer { server.stop() }
        let refreshes = Counter()
        let gate = Promise<Void>()
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                try await gate.value(within: .seconds(30))
                return .bearer("fresh")
            }
        )
        let transport = makeTestNetworkSession().transport(with: .authenticated(by: auth), .validatingStatus())
        let url = server.url(for: "/account")
        let calls = (0..<4).map { _ in Task { try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 } } }
        for _ in 0..<4 {
            _ = await server.takeRequest(timeout: .seconds(30))
        }
        gate.resolve()
        for call in calls {
            #expect(try await call.value == Data("hello".utf8))
        }
        #expect(refreshes.value == 1)
    }

    @Test func refreshesBeyondTheLimitFailWithRefreshLimitReached() async throws {
        let server = try makeProtectedServer(valid: "never")
        defer { server.stop() }
        let apiURL = server.baseURL
        let refreshes = Counter()
        let auth = Authenticator(
            store: CredentialStore(.bearer("t0")),
            allowedOrigins: [Origin(url: apiURL)!],
            refresh: { _ in
                refreshes.increment()
                return .bearer("t\(refreshes.value)")
            }
        )
        let transport = NetworkSession.shared.transport(
            with:
                .authenticated(by: auth),
            .retry(),
            .validatingStatus()
        )
        for _ in 0..<3 {
            let error = await #expect(throws: HTTPStatusError.self) {
                try await withDocSampleTimeLimit { try await transport(URLRequest(url: apiURL.appendingPathComponent("account"))).0 }
            }
            #expect(error?.status == 401)
        }
        let reason = LastText()
        @Sendable func signInAgain(because text: String) { reason.set(text) }

        try await withDocSampleTimeLimit {
            do {
                _ = try await transport(URLRequest(url: apiURL.appendingPathComponent("account")))
            } catch AuthenticationError.refreshLimitReached(let limit, within: let window) {
                signInAgain(because: "\(limit) fresh credentials were refused within \(window)")
            }
        }

        #expect(reason.value == "3 fresh credentials were refused within 60.0 seconds")
        #expect(refreshes.value == 3)
    }

    @Test func severalUsersNeverShareAnswersAndASignOutFreesTheCache() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let store = CredentialStore(.bearer("ada"))
        let auth = Authenticator(store: store, allowedOrigins: [Origin(url: server.baseURL)!])
        let session = makeTestNetworkSession()

        let cache = ResponseCache(cookieStorage: session.configuration.httpCookieStorage)
        cache.removesResponses(ofCredentialsReplacedIn: store)
        let transport = session.transport(
            with:
                .timeout(after: .seconds(10)),
            .authenticated(by: auth),
            .cached(in: cache),
            .deduplicated(),
            .retry(),
            .validatingStatus()
        )

        let me = URLRequest(url: server.url(for: "/me"))
        #expect(try await withDocSampleTimeLimit { try await transport(me).0 } == Data("Bearer ada".utf8))
        #expect(try await withDocSampleTimeLimit { try await transport(me).0 } == Data("Bearer ada".utf8))
        #expect(cache.count == 1)

        await store.store(nil)  // signed out: a refresh under way is abandoned, the cached answers freed

        #expect(cache.count == 0)
        #expect(try await withDocSampleTimeLimit { try await transport(me).0 } == Data("-".utf8))
        await store.store(.bearer("bob"))
        #expect(try await withDocSampleTimeLimit { try await transport(me).0 } == Data("Bearer bob".utf8))
        #expect(server.requestCount == 3)
    }

    @Test func aHeaderOfYourOwnCountsAsACredential() async throws {
        let secrets = Redaction.default.redactingHeaders("X-Session")
        let cache = ResponseCache(credentials: secrets)
        let deduplicator = RequestDeduplicator(credentials: secrets)
        let policy = TransportPolicy(redaction: secrets)
        #expect(policy.redaction.headerNames.contains("x-session"))

        let calls = Counter()
        let upstream: Transport = { request in
            calls.increment()
            let response = stubResponse(for: request, headers: ["Cache-Control": "max-age=60"])
            return (Data((request.value(forHTTPHeaderField: "X-Session") ?? "-").utf8), response)
        }
        let transport = NetworkSession(sending: upstream).transport(with: .cached(in: cache), .deduplicated(by: deduplicator))
        for user in ["ada", "bob", "ada"] {
            var request = URLRequest(url: URL(string: "https://shop.test/me")!)
            request.setValue(user, forHTTPHeaderField: "X-Session")
            #expect(try await transport(request).0 == Data(user.utf8))
        }
        #expect(calls.value == 2)
    }

    @Test func theDefaultRedactionAndCallerNamedSecretsAreHiddenFromLogs() async throws {
        let redaction = Redaction.default.redactingHeaders("X-Session").redactingQueryItems("ticket")
        let logging = Composer.logged(to: { record in print(record.message) }, redaction: redaction)

        // The same redaction, with the lines kept for the test to read.
        let lines = Collected<String>()
        let kept = Composer.logged(to: { record in lines.append(record.message) }, redaction: redaction)
        let transport = NetworkSession(sending: stubTransport(data: Data("ok".utf8))).transport(with: logging, kept)
        var request = URLRequest(url: URL(string: "https://ann:pw-s3cret@shop.test/a?ticket=t-s3cret&access_token=a-s3cret&page=2")!)
        request.setValue("x-s3cret", forHTTPHeaderField: "X-Session")
        _ = try await transport(request)
        #expect(lines.values.count == 2)  // the printed pair is the same as the kept one
        #expect(lines.values.allSatisfy { !$0.contains("s3cret") })
        #expect(lines.values.last?.contains("ticket=<redacted>&access_token=<redacted>&page=2") == true)
    }

    @Test func originsAreSchemeHostAndPort() {
        let api = Origin(url: URL(string: "https://api.shop.example")!)!  // https, port 443 implied
        let staging = Origin(scheme: "https", host: "staging.shop.example", port: 8443)

        #expect(api == Origin(scheme: "https", host: "api.shop.example", port: 443))
        #expect(staging.description == "https://staging.shop.example:8443")
    }

    @Test func aRequestToAnotherOriginGoesWithoutTheCredential() async throws {
        let api = try makeAuthorizationEchoServer()
        defer { api.stop() }
        let elsewhere = try makeAuthorizationEchoServer()
        defer { elsewhere.stop() }
        let auth = Authenticator(store: CredentialStore(.bearer("s3cr3t")), allowedOrigins: [Origin(url: api.baseURL)!])
        let transport = NetworkSession.shared.transport(with: .authenticated(by: auth))
        let toAPI = try await withDocSampleTimeLimit { try await transport(URLRequest(url: api.url(for: "/me"))).0 }
        let toElsewhere = try await withDocSampleTimeLimit { try await transport(URLRequest(url: elsewhere.url(for: "/me"))).0 }
        #expect(String(decoding: toAPI, as: UTF8.self) == "Bearer s3cr3t")
        #expect(String(decoding: toElsewhere, as: UTF8.self) == "-")
    }

    @Test func aRedirectToAnotherOriginLosesTheCredentialAndOneWithinTheOriginKeepsIt() async throws {
        let elsewhere = try makeAuthorizationEchoServer()
        defer { elsewhere.stop() }
        let target = elsewhere.url(for: "/landing")
        let api = try LoopbackServer { request in
            switch request.path {
            case "/away": .redirect(to: target)
            case "/here": .redirect(to: "/landing")
            default: .text(request.header("Authorization") ?? "-")
            }
        }
        defer { api.stop() }
        let auth = Authenticator(store: CredentialStore(.bearer("s3cr3t")), allowedOrigins: [Origin(url: api.baseURL)!])
        let transport = NetworkSession.shared.transport(with: .authenticated(by: auth))
        let away = try await withDocSampleTimeLimit { try await transport(URLRequest(url: api.url(for: "/away"))).0 }
        let here = try await withDocSampleTimeLimit { try await transport(URLRequest(url: api.url(for: "/here"))).0 }
        #expect(String(decoding: away, as: UTF8.self) == "-")
        #expect(String(decoding: here, as: UTF8.self) == "Bearer s3cr3t")
    }

    @Test func theLoginsTokenIsCapturedAndUsedForTheNextRequest() async throws {
        let server = try LoopbackServer { request in
            if request.path == "/login" { return .json(#"{"token":"fresh"}"#) }
            return request.header("Authorization") == "Bearer fresh" ? .text("hello") : .text("who are you?", status: 401)
        }
        defer { server.stop() }
        let store = CredentialStore()
        let auth = Authenticator(store: store, allowedOrigins: [Origin(url: server.baseURL)!])

        struct Login: Decodable {
            let token: String
        }

        let transport = NetworkSession.shared.transport(
            with:
                .capturingCredential(into: store) { request, data, _ in
                    guard request.url?.path == "/login" else { return nil }
                    return .bearer(try JSONDecoder().decode(Login.self, from: data).token)
                },
            .authenticated(by: auth),
            .validatingStatus()
        )

        let login = server.url(for: "/login")
        let account = server.url(for: "/account")
        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: login)).0 }
        #expect(await store.credential == .bearer("fresh"))
        let body = try await withDocSampleTimeLimit { try await transport(URLRequest(url: account)).0 }
        #expect(body == Data("hello".utf8))
    }
}
