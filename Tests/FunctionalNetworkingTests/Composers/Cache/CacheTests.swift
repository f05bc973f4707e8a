import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Composer.cached")
struct CacheTests {
    @Test func aBurstOfIdenticalMissesMakesOneUpstreamCallWhateverTheTiming() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":7}"#).delayed(by: .milliseconds(50)) }
        defer { server.stop() }
        let transport = makeTestNetworkSession(timeout: 30).transport(with: .cached(in: ResponseCache(heuristicFreshness: .seconds(60))))
        let url = server.url(for: "/products/7")
        try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<40 {
                group.addTask { try await transport(URLRequest(url: url)).0 }
            }
            for try await data in group {
                #expect(data == Data(#"{"id":7}"#.utf8))
            }
        }
        // Each request either hit, joined the call in flight, or started a call that found the
        // answer its predecessor stored: never a second upstream call.
        #expect(server.requestCount == 1)
    }

    @Test func whenTheFirstOfIdenticalMissesIsCancelledTheOthersFetchAgainAndNeverSeeItsCancellation() async throws {
        let upstream = MissCounter()
        let cache = ResponseCache()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))
        let request = URLRequest(url: URL(string: "https://shop.test/products/7")!)

        let first = Task { try await transport(request).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls == 1 })
        let others = (0..<2).map { _ in Task { try await transport(request).0 } }
        try #require(await TrafficTestSupport.waitUntil { cache.waitingMissCount == 2 })
        first.cancel()

        #expect(await TrafficTestSupport.outcome(of: first).failure is CancellationError)
        // Each of the others made the call again or joined the one made again (the answer is not
        // kept: it says nothing of its freshness): an answer, never the first caller's
        // cancellation.
        for other in others {
            let answer = String(decoding: try await TrafficTestSupport.outcome(of: other).get(), as: UTF8.self)
            #expect(answer == "answer 2" || answer == "answer 3")
        }
        #expect((2...3).contains(upstream.calls))
    }

    @Test func aCancelledWaitingMissLeavesAtOnceAndTheOthersShareTheOneCall() async throws {
        let upstream = MissCounter()
        let cache = ResponseCache()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))
        let request = URLRequest(url: URL(string: "https://shop.test/products/7")!)

        let first = Task { try await transport(request).0 }
        try #require(await TrafficTestSupport.waitUntil { upstream.calls == 1 })
        let others = (0..<2).map { _ in Task { try await transport(request).0 } }
        try #require(await TrafficTestSupport.waitUntil { cache.waitingMissCount == 2 })
        others[0].cancel()
        #expect(await TrafficTestSupport.outcome(of: others[0]).failure is CancellationError)
        #expect(cache.waitingMissCount == 1)

        upstream.openFirstCall()
        #expect(try await TrafficTestSupport.outcome(of: first).get() == Data("answer 1".utf8))
        #expect(try await TrafficTestSupport.outcome(of: others[1]).get() == Data("answer 1".utf8))
        #expect(upstream.calls == 1)
    }

    let clock = TestClock()

    @Test func aRepeatedGETIsAnsweredFromTheCacheWithTheSameDataAndResponse() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        let (firstData, firstResponse) = try await transport(Self.request("/a"))
        let (secondData, secondResponse) = try await transport(Self.request("/a"))

        #expect(upstream.paths == ["/a"])
        #expect(secondData == firstData)
        #expect(secondResponse === firstResponse)
        #expect(cache.count == 1)
    }

    @Test func differentURLsAreDifferentEntries() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/b"))
        _ = try await transport(Self.request("/a?page=2"))
        _ = try await transport(Self.request("/b"))

        #expect(upstream.paths == ["/a", "/b", "/a"])
    }

    @Test func anEntryWithoutFreshnessInformationExpiresAfterTheHeuristicFreshness() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        _ = try await transport(Self.request("/a"))
        clock.advance(by: .seconds(59))
        _ = try await transport(Self.request("/a"))
        #expect(upstream.calls == 1)

        clock.advance(by: .seconds(1))
        _ = try await transport(Self.request("/a"))
        #expect(upstream.calls == 2)
    }

    @Test func aResponseMaxAgeOverridesTheHeuristicFreshness() async throws {
        let short = CountingTransport(headers: ["Cache-Control": "public, max-age=5"])
        let shortTransport = NetworkSession(sending: short.transport).transport(
            with: .cached(heuristicFreshness: .seconds(60), clock: clock))
        let long = CountingTransport(headers: ["cache-control": "max-age=\"120\""])
        let longTransport = NetworkSession(sending: long.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        _ = try await shortTransport(Self.request("/a"))
        _ = try await longTransport(Self.request("/a"))
        clock.advance(by: .milliseconds(4_999))
        _ = try await shortTransport(Self.request("/a"))
        #expect(short.calls == 1)
        clock.advance(by: .milliseconds(1))
        _ = try await shortTransport(Self.request("/a"))
        #expect(short.calls == 2)

        clock.advance(by: .seconds(100))
        _ = try await longTransport(Self.request("/a"))
        #expect(long.calls == 1)
        clock.advance(by: .seconds(15))
        _ = try await longTransport(Self.request("/a"))
        #expect(long.calls == 2)
    }

    @Test func aNoStoreResponseIsNeverKept() async throws {
        let upstream = CountingTransport(headers: ["Cache-Control": "no-store"])
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test(arguments: ["no-cache", "max-age=0", "private, MAX-AGE=0", "max-age=soon"])
    func aResponseThatMustBeRevalidatedIsNotServedFromTheCache(cacheControl: String) async throws {
        let upstream = CountingTransport(headers: ["Cache-Control": cacheControl])
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test func aResponseVaryingOnEverythingIsNotKept() async throws {
        let upstream = CountingTransport(headers: ["Vary": "Accept, *"])
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        _ = try await cache.send(Self.request("/a"), through: upstream.transport)
        #expect(cache.count == 0)
    }

    @Test(arguments: [HTTPMethod.post, .head, .put, .delete, .patch, .options])
    func onlyGETRequestsAreCached(method: HTTPMethod) async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))
        var request = Self.request("/a")
        request.httpMethod = method.rawValue

        _ = try await transport(request)
        _ = try await transport(request)

        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test(arguments: [200, 203, 204, 299])
    func twoHundredsAreCached(status: Int) async throws {
        let upstream = CountingTransport(status: status)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 1)
    }

    @Test(arguments: [100, 301, 304, 404, 500, 503])
    func otherStatusesAreNotCached(status: Int) async throws {
        let upstream = CountingTransport(status: status)
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test func errorsAreNotCached() async throws {
        let upstream = CountingTransport(failingWith: URLError(.timedOut))
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        await #expect(throws: URLError.self) { try await transport(Self.request("/a")) }
        await #expect(throws: URLError.self) { try await transport(Self.request("/a")) }
        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test func theLeastRecentlyUsedEntryIsEvictedAndUsingAnEntryKeepsIt() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(heuristicFreshness: .seconds(60), maxEntries: 2, clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/b"))
        _ = try await transport(Self.request("/a"))  // a hit: /a is now the most recently used
        _ = try await transport(Self.request("/c"))  // evicts /b
        #expect(cache.count == 2)
        _ = try await transport(Self.request("/a"))  // still held
        _ = try await transport(Self.request("/b"))  // gone: fetched again, evicting /c

        #expect(upstream.paths == ["/a", "/b", "/c", "/b"])
        #expect(cache.cachedResponse(for: Self.request("/c")) == nil)
        #expect(cache.cachedResponse(for: Self.request("/a")) != nil)
    }

    @Test func theByteLimitEvictsTheLeastRecentlyUsed() async throws {
        let upstream = CountingTransport(body: { path in Data(path == "/big" ? "0123456789ABC".utf8 : "1234".utf8) })
        let cache = ResponseCache(heuristicFreshness: .seconds(60), maxBytes: 10, clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/b"))
        #expect(cache.totalBytes == 8)
        _ = try await transport(Self.request("/c"))  // 12 bytes would be too many: evicts /a
        #expect(cache.totalBytes == 8)
        #expect(cache.count == 2)
        #expect(cache.cachedResponse(for: Self.request("/a")) == nil)

        _ = try await transport(Self.request("/big"))  // larger than the limit: never kept
        #expect(cache.cachedResponse(for: Self.request("/big")) == nil)
        #expect(cache.count == 2)
        #expect(cache.totalBytes == 8)
    }

    @Test func differentAuthorizationValuesAreDifferentEntries() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        let ada = try await transport(Self.request("/me", headers: ["Authorization": "Bearer ada"])).0
        let bob = try await transport(Self.request("/me", headers: ["Authorization": "Bearer bob"])).0
        let adaAgain = try await transport(Self.request("/me", headers: ["authorization": "Bearer ada"])).0

        #expect(upstream.calls == 2)
        #expect(ada != bob)
        #expect(adaAgain == ada)
    }

    @Test func acceptAndAcceptLanguageMatterByDefaultButOtherHeadersDoNot() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        _ = try await transport(Self.request("/a", headers: ["Accept": "application/json", "X-Request-ID": "1"]))
        _ = try await transport(Self.request("/a", headers: ["Accept": "application/json", "X-Request-ID": "2"]))
        #expect(upstream.calls == 1)
        _ = try await transport(Self.request("/a", headers: ["Accept": "text/html"]))
        _ = try await transport(Self.request("/a", headers: ["Accept": "application/json", "Accept-Language": "fr"]))
        #expect(upstream.calls == 3)
    }

    @Test func theHeadersThatMatterCanBeChosenButCredentialsAlwaysCount() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(
            with: .cached(heuristicFreshness: .seconds(60), varyingOn: .only(["X-Tenant"]), clock: clock))

        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "1", "Authorization": "ada"]))
        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "1", "Authorization": "ada", "Accept": "text/html"]))
        #expect(upstream.calls == 1)
        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "1", "Authorization": "bob"]))
        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "2"]))

        #expect(upstream.calls == 3)
    }

    // MARK: - Several users

    @Test(arguments: ["Authorization", "Proxy-Authorization", "Cookie", "X-API-Key", "api-key", "X-Auth-Token"])
    func aResponseFetchedWithOneCredentialIsNeverServedToAnotherOrToNone(carrier: String) async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        let ada = try await transport(Self.request("/me", headers: [carrier: "ada-secret"])).0
        let bob = try await transport(Self.request("/me", headers: [carrier: "bob-secret"])).0
        let nobody = try await transport(Self.request("/me")).0
        let adaAgain = try await transport(Self.request("/me", headers: [carrier.uppercased(): "ada-secret"])).0

        #expect(upstream.calls == 3)
        #expect(Set([ada, bob, nobody]).count == 3)
        #expect(adaAgain == ada)
    }

    @Test func aCallerNamedHeaderCarriesACredentialToo() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(
            with: .cached(heuristicFreshness: .seconds(60), credentials: .default.redactingHeaders("X-Session"), clock: clock))

        _ = try await transport(Self.request("/me", headers: ["X-Session": "ada"]))
        _ = try await transport(Self.request("/me", headers: ["X-Session": "bob"]))
        _ = try await transport(Self.request("/me", headers: ["x-session": "ada"]))

        #expect(upstream.calls == 2)
    }

    @Test func cookiesFromTheSessionsCookieStorageKeepUsersApart() async throws {
        let server = try LoopbackServer { request in .json(#"{"me":"\#(request.header("Cookie") ?? "nobody")"}"#) }
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let storage = try #require(configuration.httpCookieStorage)
        let session = NetworkSession(configuration: configuration)
        let cache = ResponseCache(heuristicFreshness: .seconds(60), cookieStorage: storage, clock: clock)
        let transport = session.transport(with: .cached(in: cache))
        func signIn(_ user: String) throws {
            storage.cookies?.forEach(storage.deleteCookie)
            let cookie = try #require(
                HTTPCookie(properties: [.name: "session", .value: user, .domain: "127.0.0.1", .path: "/"]))
            storage.setCookie(cookie)
        }

        try signIn("A")
        let first = try await transport(URLRequest(url: server.url(for: "/me"))).0
        try signIn("B")
        let second = try await transport(URLRequest(url: server.url(for: "/me"))).0
        try signIn("A")
        let third = try await transport(URLRequest(url: server.url(for: "/me"))).0

        #expect(String(decoding: first, as: UTF8.self) == #"{"me":"session=A"}"#)
        #expect(String(decoding: second, as: UTF8.self) == #"{"me":"session=B"}"#)
        #expect(third == first)
        #expect(server.requestCount == 2)
    }

    @Test func varyNamingARequestHeaderServesOnlyRequestsWithTheSameValues() async throws {
        let upstream = CountingTransport(headers: ["Vary": "X-Tenant, Accept-Encoding"])
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        let one = try await transport(Self.request("/a", headers: ["X-Tenant": "1"])).0
        let oneAgain = try await transport(Self.request("/a", headers: ["x-tenant": "1"])).0
        #expect(oneAgain == one)
        #expect(upstream.calls == 1)
        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "2"]))  // another value: upstream
        _ = try await transport(Self.request("/a"))  // absent where it was present: upstream
        let absentAgain = try await transport(Self.request("/a")).0  // absent in both: a match
        #expect(upstream.calls == 3)
        #expect(absentAgain == Data("/a #3".utf8))
        _ = try await transport(Self.request("/a", headers: ["Accept-Encoding": "br"]))
        #expect(upstream.calls == 4)
    }

    @Test func varyCookieIsHonouredWithTheCredentialHeadersLeftToTheCaller() async throws {
        // Even a cache told that no header carries a credential honours the response's Vary.
        let upstream = CountingTransport(headers: ["Vary": "Cookie"])
        let transport = NetworkSession(sending: upstream.transport).transport(
            with: .cached(heuristicFreshness: .seconds(60), credentials: .none, cookieStorage: nil, clock: clock))

        _ = try await transport(Self.request("/me", headers: ["Cookie": "session=A"]))
        let b = try await transport(Self.request("/me", headers: ["Cookie": "session=B"])).0
        #expect(b == Data("/me #2".utf8))
        #expect(upstream.calls == 2)
    }

    // MARK: - Budget

    @Test func eightHundredMegabyteBodiesPassThroughAndNothingIsKept() async throws {
        // Eight 100 MB answers: each larger than the entry cap, so each is passed on, none kept.
        let upstream = CountingTransport(body: { _ in Data(count: 100_000_000) })
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))
        for index in 0..<8 {
            #expect(try await transport(Self.request("/big/\(index)")).0.count == 100_000_000)
        }
        #expect(cache.totalBytes == 0)
        #expect(cache.count == 0)
        #expect(cache.maxBytes == 16 * 1024 * 1024)
        #expect(cache.maxEntryBytes == 1024 * 1024)
    }

    @Test func theDefaultByteBudgetBoundsWhatIsKept() async throws {
        let megabyte = 1024 * 1024
        let upstream = CountingTransport(body: { _ in Data(count: megabyte) })
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))
        for index in 0..<40 {
            _ = try await transport(Self.request("/part/\(index)"))
        }
        #expect(cache.totalBytes == 16 * megabyte)
        #expect(cache.count == 16)
        #expect(cache.cachedResponse(for: Self.request("/part/39")) != nil)
        #expect(cache.cachedResponse(for: Self.request("/part/0")) == nil)
    }

    // MARK: - Sign-out

    @Test func aSignOutFreesWhatTheOldCredentialCachedAndKeepsPublicAnswers() async throws {
        let server = try LoopbackServer { request in .text("\(request.path) for \(request.header("Authorization") ?? "anyone")") }
        defer { server.stop() }
        let otherOrigin = try LoopbackServer { _ in .text("products") }
        defer { otherOrigin.stop() }
        let store = CredentialStore(.bearer("ada"))
        let cache = ResponseCache(heuristicFreshness: .seconds(60), cookieStorage: nil, clock: clock)
        cache.removesResponses(ofCredentialsReplacedIn: store)
        let auth = Authenticator(store: store, allowedOrigins: [Origin(url: server.baseURL)!])
        let transport = makeTestNetworkSession().transport(with: .authenticated(by: auth), .cached(in: cache))
        let public_ = URLRequest(url: otherOrigin.url(for: "/products"))

        _ = try await transport(URLRequest(url: server.url(for: "/me")))
        _ = try await transport(URLRequest(url: server.url(for: "/orders")))
        _ = try await transport(public_)  // another origin: sent without the credential
        #expect(cache.count == 3)

        await store.store(nil)
        #expect(cache.count == 1)  // only the public answer is left
        #expect(cache.cachedResponse(for: public_) != nil)
        let (afterSignOut, _) = try await transport(URLRequest(url: server.url(for: "/me")))
        #expect(String(decoding: afterSignOut, as: UTF8.self) == "/me for anyone")

        await store.store(.bearer("bob"))
        let (bob, _) = try await transport(URLRequest(url: server.url(for: "/me")))
        #expect(String(decoding: bob, as: UTF8.self) == "/me for Bearer bob")
        #expect(server.requestCount == 4)
        #expect(otherOrigin.requestCount == 1)
    }

    @Test func identicalRequestsFromTwoURLRequestInstancesHitTheSameEntry() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":7}"#) }
        defer { server.stop() }
        let transport = makeTestNetworkSession().transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        var first = URLRequest(url: server.url(for: "/products/7"))
        first.setValue("application/json", forHTTPHeaderField: "Accept")
        first.setValue("Bearer ada", forHTTPHeaderField: "Authorization")
        var second = URLRequest(url: URL(string: server.url(for: "/products/7").absoluteString)!)
        second.setValue("Bearer ada", forHTTPHeaderField: "authorization")
        second.setValue("application/json", forHTTPHeaderField: "accept")

        let (firstData, _) = try await transport(first)
        let (secondData, _) = try await transport(second)

        #expect(secondData == firstData)
        #expect(server.requestCount == 1)
    }

    @Test func aRequestAskingForNoCacheGoesUpstreamAndRefreshesTheEntry() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        let first = try await transport(Self.request("/a")).0
        let refreshed = try await transport(Self.request("/a", headers: ["Cache-Control": "no-cache"])).0
        let afterwards = try await transport(Self.request("/a")).0

        #expect(upstream.calls == 2)
        #expect(refreshed != first)
        #expect(afterwards == refreshed)
    }

    @Test func aRequestAskingForNoStoreNeitherReadsNorWritesTheCache() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        _ = try await transport(Self.request("/a", headers: ["Cache-Control": "no-store"]))
        #expect(cache.count == 0)
        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a", headers: ["Cache-Control": "no-store"]))
        #expect(upstream.calls == 3)
        #expect(cache.count == 1)
    }

    @Test func aRequestMaxAgeLimitsTheAgeOfTheResponseItAccepts() async throws {
        let upstream = CountingTransport()
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(heuristicFreshness: .seconds(60), clock: clock))

        _ = try await transport(Self.request("/a"))
        clock.advance(by: .seconds(10))
        _ = try await transport(Self.request("/a", headers: ["Cache-Control": "max-age=30"]))
        #expect(upstream.calls == 1)
        _ = try await transport(Self.request("/a", headers: ["Cache-Control": "max-age=10"]))
        #expect(upstream.calls == 2)
        _ = try await transport(Self.request("/a", headers: ["Cache-Control": "max-age=0"]))
        #expect(upstream.calls == 3)
    }

    @Test func theCallerCanInspectAndClearTheCache() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(heuristicFreshness: .seconds(60), clock: clock)
        let transport = NetworkSession(sending: upstream.transport).transport(with: .cached(in: cache))

        let (data, _) = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/b"))
        #expect(cache.cachedResponse(for: Self.request("/a"))?.0 == data)
        #expect(cache.count == 2)

        cache.removeResponse(for: Self.request("/a"))
        #expect(cache.cachedResponse(for: Self.request("/a")) == nil)
        #expect(cache.count == 1)

        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.totalBytes == 0)
        _ = try await transport(Self.request("/b"))
        #expect(upstream.calls == 3)
    }

    @Test func anExpiredEntryIsRemovedWhenFound() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(heuristicFreshness: .seconds(1), clock: clock)
        _ = try await cache.send(Self.request("/a"), through: upstream.transport)
        #expect(cache.count == 1)

        clock.advance(by: .seconds(1))
        #expect(cache.cachedResponse(for: Self.request("/a")) == nil)
        #expect(cache.count == 0)
        #expect(cache.totalBytes == 0)
    }

    // MARK: - Helpers

    private static func request(_ path: String, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://shop.test\(path)")!)
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}

/// A transport that counts its calls and records their paths; each answer's body names the
/// call (`"/a #1"`), so a fresh answer differs from a cached one.
private final class CountingTransport: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private let status: Int
    private let headers: [String: String]
    private let failure: (any Error)?
    private let body: (@Sendable (String) -> Data)?

    init(
        status: Int = 200,
        headers: [String: String] = [:],
        failingWith failure: (any Error)? = nil,
        body: (@Sendable (String) -> Data)? = nil
    ) {
        self.status = status
        self.headers = headers
        self.failure = failure
        self.body = body
    }

    var paths: [String] { lock.withLock { recorded } }
    var calls: Int { paths.count }

    var transport: Transport {
        { [self] request in
            let path = request.url?.path ?? ""
            let number = lock.withLock {
                recorded.append(path)
                return recorded.count
            }
            if let failure {
                throw failure
            }
            let data = body?(path) ?? Data("\(path) #\(number)".utf8)
            return (data, stubResponse(for: request, status: status, headers: headers))
        }
    }
}

/// A transport whose first call waits until ``openFirstCall()`` (and throws `CancellationError`
/// if its task is cancelled meanwhile); every call answers `answer <n>`, n counting the calls.
private final class MissCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private let gate = Promise<Void>()

    var calls: Int { lock.withLock { count } }

    func openFirstCall() {
        gate.resolve()
    }

    var transport: Transport {
        { [self] request in
            let number = lock.withLock {
                count += 1
                return count
            }
            if number == 1 {
                try await gate.value
            }
            return (Data("answer \(number)".utf8), stubResponse(for: request))
        }
    }
}
