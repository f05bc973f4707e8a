import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

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

    @Test(arguments: StackShape.allCases)
    func fiveConcurrent401sCauseExactlyOneRefreshAndAllSucceed(_ shape: StackShape) async throws {
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
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth), .validatingStatus())
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

    @Test(arguments: StackShape.allCases)
    func aRequestWithAnOlderCredentialIsRetriedWithTheNewerOneWithoutRefreshing(_ shape: StackShape) async throws {
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
        let transport = shape.session(sending: racing).transport(with: .authenticated(by: auth))
        let (data, _) = try await transport(URLRequest(url: server.url(for: "/me")))
        #expect(data == Data("hello /me".utf8))
        #expect(refreshes.value == 0)
    }

    @Test(arguments: StackShape.allCases)
    func aFailedRefreshFailsEveryWaiterWithAClearError(_ shape: StackShape) async throws {
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
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth))
        let calls = (0..<3).map { _ in Task { try await transport(URLRequest(url: server.url(for: "/"))) } }
        for _ in 0..<3 { _ = await server.takeRequest(timeout: .seconds(30)) }
        gate.resolve()
        for call in calls {
            let error = await #expect(throws: AuthenticationError.self) { try await call.value }
            #expect(error?.description.hasPrefix("Refreshing the credential failed") == true)
        }
    }

    @Test(arguments: StackShape.allCases)
    func aServerThatAlwaysSays401CausesBoundedRefreshesThenADistinctError(_ shape: StackShape) async throws {
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
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth), .validatingStatus())
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

    @Test(arguments: StackShape.allCases)
    func theTokenNeverReachesAnOriginTheCallerDidNotAllow(_ shape: StackShape) async throws {
        let allowed = try LoopbackServer { request in .text(request.header("Authorization") ?? "none") }
        defer { allowed.stop() }
        let other = try LoopbackServer { request in .text(request.header("Authorization") ?? "none") }
        defer { other.stop() }
        let auth = Authenticator(store: CredentialStore(.bearer("s3cr3t")), allowedOrigins: [Origin(url: allowed.baseURL)!])
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth))
        #expect(try await transport(URLRequest(url: allowed.url(for: "/"))).0 == Data("Bearer s3cr3t".utf8))
        #expect(try await transport(URLRequest(url: other.url(for: "/"))).0 == Data("none".utf8))
    }

    @Test(arguments: [
        ("https://api.example.com/x", true), ("https://api.example.com", true), ("https://api.example.com?q=1", true),
        ("https://api.example.com#top", true), ("https://API.Example.com/x", true), ("https://api.example.com:443/x", true),
        ("https://api.example.com:8443/x", false), ("https://api.example.com.evil.test/x", false),
        ("https://api.example.com@evil.test/x", false), ("http://api.example.com/x", false),
        ("https://evil.test/https://api.example.com", false), ("https://evil.test/?next=https://api.example.com", false),
    ])
    func theTokenGoesToEverySpellingOfTheAllowedOriginAndToNoOtherOrigin(url: String, sent: Bool) async throws {
        let echo = stubTransport { request in
            (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
        }
        let auth = Authenticator(
            store: CredentialStore(.bearer("s3cr3t")),
            allowedOrigins: [Origin(scheme: "https", host: "api.example.com", port: 443)]
        )
        let transport = NetworkSession(sending: echo).transport(with: .authenticated(by: auth))
        let received = try await transport(URLRequest(url: URL(string: url)!)).0
        #expect(received == Data((sent ? "Bearer s3cr3t" : "none").utf8))
    }

    @Test(arguments: StackShape.allCases)
    func theCredentialReplacesAnAuthorizationHeaderTheCallerSpelledOtherwise(_ shape: StackShape) async throws {
        let headers = stubTransport { request in
            let names = (request.allHTTPHeaderFields ?? [:]).keys.filter { $0.lowercased() == "authorization" }
            return (Data("\(names.count) \(request.value(forHTTPHeaderField: "Authorization") ?? "none")".utf8), stubResponse(for: request))
        }
        let auth = Authenticator(
            store: CredentialStore(.bearer("s3cr3t")),
            allowedOrigins: [Origin(scheme: "https", host: "api.example.com", port: 443)]
        )
        var request = URLRequest(url: URL(string: "https://api.example.com/me")!)
        request.allHTTPHeaderFields = ["authorization": "Bearer old", "Accept": "application/json"]
        let transport = shape.session(sending: headers).transport(with: .authenticated(by: auth))
        #expect(try await transport(request).0 == Data("1 Bearer s3cr3t".utf8))
    }

    @Test(arguments: StackShape.allCases)
    func aCredentialWithALineBreakIsNeverSent(_ shape: StackShape) async throws {
        let echo = stubTransport { request in
            (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
        }
        let auth = Authenticator(
            store: CredentialStore(.bearer("s3cr3t\r\nX-Injected: 1")),
            allowedOrigins: [Origin(scheme: "https", host: "api.example.com", port: 443)]
        )
        let transport = shape.session(sending: echo).transport(with: .authenticated(by: auth))
        #expect(try await transport(URLRequest(url: URL(string: "https://api.example.com/me")!)).0 == Data("none".utf8))
    }

    @Test(arguments: StackShape.allCases)
    func theTokenNeverFollowsARedirectToAnotherOrigin(_ shape: StackShape) async throws {
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
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth))
        var request = URLRequest(url: allowed.url(for: "/go"))
        request.setValue("session=abc", forHTTPHeaderField: "Cookie")
        let (data, _) = try await transport(request)
        #expect(String(decoding: data, as: UTF8.self) == "authorization=none cookie=none")
        let recorded = await other.takeRequest(timeout: .seconds(30))
        #expect(recorded?.header("Authorization") == nil)
    }

    /// An allowed API whose `/go` redirects with `status` to `elsewhere`'s `/landing`, and the
    /// authenticator that may serve only the API, counting its refreshes.
    func redirectingAPI(to elsewhere: LoopbackServer, status: Int, refreshes: Counter, store: CredentialStore) throws
        -> (LoopbackServer, Authenticator)
    {
        let target = elsewhere.url(for: "/landing")
        let api = try LoopbackServer { request in
            request.path == "/go" ? .redirect(to: target, status: status) : .text("hello", status: 200)
        }
        let auth = Authenticator(
            store: store, allowedOrigins: [Origin(url: api.baseURL)!],
            refresh: { _ in .bearer("r\(refreshes.increment())") },
            clock: TestClock()
        )
        return (api, auth)
    }

    @Test(arguments: StackShape.allCases, [307, 302])
    func a401FromAnotherOriginAfterARedirectNeverRefreshesAndReachesTheCallerAsAStatusError(_ shape: StackShape, status: Int) async throws {
        let elsewhere = try LoopbackServer { _ in
            .text("sign in at elsewhere", status: 401, headers: [.init("WWW-Authenticate", "Bearer realm=\"elsewhere\"")])
        }
        defer { elsewhere.stop() }
        let refreshes = Counter()
        let store = CredentialStore(.bearer("s3cr3t"))
        let (api, auth) = try redirectingAPI(to: elsewhere, status: status, refreshes: refreshes, store: store)
        defer { api.stop() }
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth), .retry(), .validatingStatus())
        for _ in 0..<4 {
            let error = await #expect(throws: HTTPStatusError.self) {
                try await Future { try await transport(URLRequest(url: api.url(for: "/go"))) }.value(within: .seconds(30))
            }
            #expect(error?.status == 401)
        }
        #expect(refreshes.value == 0)
        #expect(await store.credential == .bearer("s3cr3t"), "the API never refused it")
        #expect(api.requestCount == 4 && elsewhere.requestCount == 4, "each request sent once, none retried")
        let landed = try #require(await elsewhere.takeRequest(timeout: .seconds(30)))
        #expect(landed.header("Authorization") == nil)
    }

    @Test(arguments: StackShape.allCases, [307, 302])
    func a401FromAnotherOriginAfterARedirectIsReturnedAsItCameWithoutStatusValidation(_ shape: StackShape, status: Int) async throws {
        let elsewhere = try LoopbackServer { _ in .text("not yours", status: 401) }
        defer { elsewhere.stop() }
        let refreshes = Counter()
        let store = CredentialStore(.bearer("s3cr3t"))
        let (api, auth) = try redirectingAPI(to: elsewhere, status: status, refreshes: refreshes, store: store)
        defer { api.stop() }
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth))
        let (data, response) = try await Future { try await transport(URLRequest(url: api.url(for: "/go"))) }.value(within: .seconds(30))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 401)
        #expect(http.url == elsewhere.url(for: "/landing"))
        #expect(data == Data("not yours".utf8))
        #expect(refreshes.value == 0)
        #expect(await store.credential == .bearer("s3cr3t"))
    }

    @Test(arguments: StackShape.allCases)
    func a401FromTheAllowedOriginAfterARedirectWithinItStillRefreshesOnce(_ shape: StackShape) async throws {
        let refreshes = Counter()
        let api = try LoopbackServer { request in
            switch (request.path, request.header("Authorization")) {
            case ("/go", _): .redirect(to: "/me", status: 307)
            case (_, "Bearer fresh"): .text("hello")
            default: .text("expired", status: 401)
            }
        }
        defer { api.stop() }
        let store = CredentialStore(.bearer("stale"))
        let auth = Authenticator(
            store: store, allowedOrigins: [Origin(url: api.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                return .bearer("fresh")
            },
            clock: TestClock()
        )
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth), .validatingStatus())
        let (data, _) = try await Future { try await transport(URLRequest(url: api.url(for: "/go"))) }.value(within: .seconds(30))
        #expect(data == Data("hello".utf8))
        #expect(refreshes.value == 1)
        #expect(await store.credential == .bearer("fresh"))
    }

    @Test(arguments: StackShape.allCases)
    func capturingCredentialStoresALoginsToken(_ shape: StackShape) async throws {
        let server = try LoopbackServer { request in
            request.path == "/login" ? .json(#"{"token":"from-login"}"#) : .text(request.header("Authorization") ?? "none")
        }
        defer { server.stop() }
        struct Login: Decodable { let token: String }
        let store = CredentialStore()
        let auth = Authenticator(store: store, allowedOrigins: [Origin(url: server.baseURL)!])
        let transport = shape.loopbackSession().transport(
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

    @Test(arguments: StackShape.allCases)
    func aRequestSentWhileSignedOutNeverRefreshesAndARefreshNeverUndoesASignOut(_ shape: StackShape) async throws {
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
        let transport = shape.session(sending: session).transport(with: .authenticated(by: auth))
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
        let (_, response) = try await shape.session(sending: signingOut).transport(with: .authenticated(by: auth))(
            URLRequest(url: server.url(for: "/")))
        #expect((response as? HTTPURLResponse)?.statusCode == 401)
        #expect(refreshes.value == 0)
        #expect(await store.credential == nil)
    }

    // MARK: - The direct form

    @Test func aRequestWithTheStoredCredentialGoesOutOnTheCallersThreadWithNoTask() async throws {
        let seen = Collected<String>()
        let base: DirectTransport = { request, _ in
            let inTask = withUnsafeCurrentTask { $0 != nil }
            seen.append("\(request.value(forHTTPHeaderField: "Authorization") ?? "none") in task: \(inTask)")
            return Future(value: (Data("ok".utf8), stubResponse(for: request)))
        }
        let auth = Authenticator(
            store: CredentialStore(.bearer("s3cr3t")), allowedOrigins: [Origin(scheme: "https", host: "api.example.com", port: 443)]
        )
        let stack = Composer.stack([.authenticated(by: auth)], over: { _ in throw CancellationError() }, direct: base)
        let direct = try #require(stack.direct)
        let answered = Promise<Data>()
        DispatchQueue.global().async {
            direct(URLRequest(url: URL(string: "https://api.example.com/me")!), RequestContext()).observe {
                answered.complete(with: $0.map(\.0))
            }
        }
        #expect(try await answered.value(within: .seconds(30)) == Data("ok".utf8))
        #expect(seen.values == ["Bearer s3cr3t in task: false"])
    }

    @Test(arguments: StackShape.allCases)
    func cancellingDuringTheRefreshEndsAtOnceAndSendsNothingMore(_ shape: StackShape) async throws {
        let sent = Counter()
        let refused = stubTransport { request in
            sent.increment()
            return (Data(), stubResponse(for: request, status: 401))
        }
        let began = Promise<Void>()
        let gate = Promise<Void>()
        let store = CredentialStore(.bearer("stale"))
        let auth = Authenticator(
            store: store, allowedOrigins: [Origin(scheme: "https", host: "api.example.com", port: 443)],
            refresh: { _ in
                began.resolve()
                try await gate.value
                return .bearer("fresh")
            }
        )
        defer { gate.resolve() }
        let send = shape.session(sending: refused).networking(with: .authenticated(by: auth))
        let call = send(Endpoint(baseURL: URL(string: "https://api.example.com/me")!))
        try await began.value(within: .seconds(30))
        call.cancel()
        #expect(await call.result(within: .seconds(5)).failure is CancellationError)
        gate.resolve()
        // The refresh goes on for others and is kept; the caller that left sends nothing more.
        let deadline = ContinuousClock.now + .seconds(30)
        while await store.credential != .bearer("fresh"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await store.credential == .bearer("fresh"))
        try await Task.sleep(for: .milliseconds(50))
        #expect(sent.value == 1)
    }

    @Test(arguments: StackShape.allCases)
    func theRefreshRunsWithAContextOfItsOwnAndTheResentRequestWithTheCallers(_ shape: StackShape) async throws {
        let sentWith = Collected<UUID?>()
        let protected = stubTransport { request in
            sentWith.append(RequestContext.current.id)
            let status = request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh" ? 200 : 401
            return (Data(), stubResponse(for: request, status: status))
        }
        let refreshedWith = Collected<UUID?>()
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")), allowedOrigins: [Origin(scheme: "https", host: "api.example.com", port: 443)],
            refresh: { _ in
                refreshedWith.append(RequestContext.current.id)
                return .bearer("fresh")
            }
        )
        let transport = shape.session(sending: protected).transport(with: .authenticated(by: auth))
        let id = UUID()
        let (_, response) = try await RequestContext.withID(id) {
            try await transport(URLRequest(url: URL(string: "https://api.example.com/me")!))
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(sentWith.values == [id, id])
        #expect(refreshedWith.values == [nil])
    }

    @Test func aRefreshedCallOnThePackagesSessionCompletesOutsideAnyTask() async throws {
        let server = try makeProtectedServer(valid: { "fresh" })
        defer { server.stop() }
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")), allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in .bearer("fresh") }, clock: TestClock()
        )
        let send = makeTestNetworkSession().networking(
            with: .numbered(), .authenticated(by: auth), .retry(), .timeout(after: .seconds(30)), .validatingStatus())
        let outsideTask = Collected<Bool>()
        for path in ["/refreshed", "/fresh"] {
            let future = send(Endpoint(baseURL: server.baseURL, path: path)).map { data in
                outsideTask.append(withUnsafeCurrentTask { $0 == nil })
                return data
            }
            #expect(try await future.value(within: .seconds(30)) == Data("hello \(path)".utf8))
        }
        #expect(outsideTask.values == [true, true])
        #expect(server.requestCount == 3)
    }

    @Test func callsCancelledAtRandomMomentsOfTheirRequestsAndRefreshesEachEndOnce() async throws {
        // Each path's first request is refused, so that a call is cancelled during its first
        // request, its refresh, or its second request.
        let seen = Collected<String>()
        let server = try LoopbackServer { request in
            seen.append(request.path)
            return seen.values.filter { $0 == request.path }.count == 1 ? .text("expired", status: 401) : .text("ok")
        }
        defer { server.stop() }
        let refreshes = Counter()
        let auth = Authenticator(
            store: CredentialStore(.bearer("t0")), allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in .bearer("t\(refreshes.increment())") }, refreshLimit: 1_000
        )
        let send = NetworkSession(configuration: .default).networking(with: .authenticated(by: auth), .validatingStatus())
        let outcomes = StressOutcomes()
        try await withWatchdog(seconds: 300, "200 authenticated calls cancelled at random moments") {
            for index in 0..<200 {
                let future = send(Endpoint(baseURL: server.baseURL, path: "/\(index)"))
                outcomes.started += 1
                if index % 4 != 0 {
                    try await Task.sleep(nanoseconds: UInt64.random(in: 0...1_000) * 1_000)
                }
                future.cancel()
                outcomes.record(await Result { try await future.timeout(after: .seconds(60)).value })
            }
        }
        #expect(outcomes.unexpected.isEmpty, "\(outcomes.unexpected.prefix(3))")
        #expect(outcomes.ended == outcomes.started)
        #expect(outcomes.cancelled > 0)
    }

    // MARK: - Several users and sign-out

    /// A server whose `/me` names the user of the token: `A-fresh` is A, `B` is B; any other
    /// token, or none, gets a 401 saying "nobody".
    func makeUsersServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.header("Authorization") {
            case "Bearer A-fresh": .json(#"{"me":"A"}"#)
            case "Bearer B": .json(#"{"me":"B"}"#)
            default: .text("nobody", status: 401)
            }
        }
    }

    /// An authenticator for `server` whose refresh reports that it began, then waits for
    /// `gate` before handing out A's fresh token.
    func gatedAuthenticator(
        _ store: CredentialStore, for server: LoopbackServer, began: Promise<Void>, gate: Promise<Void>, refreshes: Counter
    ) -> Authenticator {
        Authenticator(
            store: store, allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                began.resolve()
                try await gate.value
                return .bearer("A-fresh")
            },
            clock: TestClock()
        )
    }

    @Test(arguments: StackShape.allCases)
    func aSignOutDuringARefreshWinsAndEveryWaiterReturnsItsUnauthorizedAnswer(_ shape: StackShape) async throws {
        let server = try makeUsersServer()
        defer { server.stop() }
        let store = CredentialStore(.bearer("A-stale"))
        let began = Promise<Void>()
        let gate = Promise<Void>()
        let refreshes = Counter()
        let auth = gatedAuthenticator(store, for: server, began: began, gate: gate, refreshes: refreshes)
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth))

        let waiting = (0..<3).map { _ in Task { try await transport(URLRequest(url: server.url(for: "/me"))) } }
        try await began.value(within: .seconds(30))
        for _ in 0..<3 { _ = await server.takeRequest(timeout: .seconds(30)) }
        await store.store(nil)  // signed out while the refresh runs
        gate.resolve()

        for call in waiting {
            let (data, response) = try await Future { try await call.value }.value(within: .seconds(30))
            #expect((response as? HTTPURLResponse)?.statusCode == 401)
            #expect(String(decoding: data, as: UTF8.self) == "nobody")
        }
        #expect(await store.credential == nil)
        #expect(refreshes.value == 1)
        let (after, _) = try await transport(URLRequest(url: server.url(for: "/me")))
        #expect(String(decoding: after, as: UTF8.self) == "nobody")  // not {"me":"A"}
        #expect(server.requestCount == 4)  // three first attempts, none retried, and `after`
    }

    @Test(arguments: StackShape.allCases)
    func aSignInDuringARefreshWinsAndTheWaitersGoOutWithTheNewCredential(_ shape: StackShape) async throws {
        let server = try makeUsersServer()
        defer { server.stop() }
        let store = CredentialStore(.bearer("A-stale"))
        let began = Promise<Void>()
        let gate = Promise<Void>()
        let refreshes = Counter()
        let auth = gatedAuthenticator(store, for: server, began: began, gate: gate, refreshes: refreshes)
        let transport = shape.loopbackSession().transport(with: .authenticated(by: auth))

        let waiting = Task { try await transport(URLRequest(url: server.url(for: "/me"))) }
        try await began.value(within: .seconds(30))
        await store.store(.bearer("B"))  // user B signs in while A's refresh runs
        gate.resolve()

        let (data, _) = try await Future { try await waiting.value }.value(within: .seconds(30))
        #expect(String(decoding: data, as: UTF8.self) == #"{"me":"B"}"#)
        #expect(await store.credential == .bearer("B"))
        let (after, _) = try await transport(URLRequest(url: server.url(for: "/me")))
        #expect(String(decoding: after, as: UTF8.self) == #"{"me":"B"}"#)
        #expect(refreshes.value == 1)
    }

    @Test func aRefreshBegunForTheNewUserIsNotJoinedToTheAbandonedOne() async throws {
        let store = CredentialStore(.bearer("A-stale"))
        let gateA = Promise<Void>()
        let beganA = Promise<Void>()
        let refreshed = Collected<String>()
        let refresh: @Sendable (Credential?) async throws -> Credential = { stale in
            refreshed.append(stale == .bearer("A-stale") ? "A" : "B")
            if stale == .bearer("A-stale") {
                beganA.resolve()
                try await gateA.value
            }
            return stale == .bearer("A-stale") ? .bearer("A-fresh") : .bearer("B-fresh")
        }
        let first = store.snapshot()
        let abandoned = Task {
            try await store.credential(after: first.version, refresh: refresh, limit: 5, window: .seconds(60), now: .zero)
        }
        try await beganA.value(within: .seconds(30))
        await store.store(.bearer("B-stale"))
        let second = store.snapshot()
        let forB = Future {
            try await store.credential(after: second.version, refresh: refresh, limit: 5, window: .seconds(60), now: .zero)
        }
        defer { gateA.resolve() }
        #expect(try await forB.value(within: .seconds(30)) == .bearer("B-fresh"))  // without waiting for A's refresh
        gateA.resolve()
        #expect(try await Future { try await abandoned.value }.value(within: .seconds(30)) == .bearer("B-fresh"))
        #expect(await store.credential == .bearer("B-fresh"))
        #expect(refreshed.values == ["A", "B"])
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
