import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Composer.cached")
struct CacheTests {
    let clock = TestClock()

    @Test func aRepeatedGETIsAnsweredFromTheCacheWithTheSameDataAndResponse() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

        let (firstData, firstResponse) = try await transport(Self.request("/a"))
        let (secondData, secondResponse) = try await transport(Self.request("/a"))

        #expect(upstream.paths == ["/a"])
        #expect(secondData == firstData)
        #expect(secondResponse === firstResponse)
        #expect(cache.count == 1)
    }

    @Test func differentURLsAreDifferentEntries() async throws {
        let upstream = CountingTransport()
        let transport = compose(upstream.transport, with: .cached(clock: clock))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/b"))
        _ = try await transport(Self.request("/a?page=2"))
        _ = try await transport(Self.request("/b"))

        #expect(upstream.paths == ["/a", "/b", "/a"])
    }

    @Test func anEntryExpiresAfterTheTimeToLive() async throws {
        let upstream = CountingTransport()
        let transport = compose(upstream.transport, with: .cached(timeToLive: .seconds(60), clock: clock))

        _ = try await transport(Self.request("/a"))
        clock.advance(by: .seconds(59))
        _ = try await transport(Self.request("/a"))
        #expect(upstream.calls == 1)

        clock.advance(by: .seconds(1))
        _ = try await transport(Self.request("/a"))
        #expect(upstream.calls == 2)
    }

    @Test func aResponseMaxAgeOverridesTheTimeToLive() async throws {
        let short = CountingTransport(headers: ["Cache-Control": "public, max-age=5"])
        let shortTransport = compose(short.transport, with: .cached(timeToLive: .seconds(60), clock: clock))
        let long = CountingTransport(headers: ["cache-control": "max-age=\"120\""])
        let longTransport = compose(long.transport, with: .cached(timeToLive: .seconds(60), clock: clock))

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
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test(arguments: ["no-cache", "max-age=0", "private, MAX-AGE=0", "max-age=soon"])
    func aResponseThatMustBeRevalidatedIsNotServedFromTheCache(cacheControl: String) async throws {
        let upstream = CountingTransport(headers: ["Cache-Control": cacheControl])
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test func aResponseVaryingOnEverythingIsNotKept() async throws {
        let upstream = CountingTransport(headers: ["Vary": "Accept, *"])
        let cache = ResponseCache(clock: clock)
        _ = try await cache.send(Self.request("/a"), through: upstream.transport)
        #expect(cache.count == 0)
    }

    @Test(arguments: [HTTPMethod.post, .head, .put, .delete, .patch, .options])
    func onlyGETRequestsAreCached(method: HTTPMethod) async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))
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
        let transport = compose(upstream.transport, with: .cached(clock: clock))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 1)
    }

    @Test(arguments: [100, 301, 304, 404, 500, 503])
    func otherStatusesAreNotCached(status: Int) async throws {
        let upstream = CountingTransport(status: status)
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a"))

        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test func errorsAreNotCached() async throws {
        let upstream = CountingTransport(failingWith: URLError(.timedOut))
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

        await #expect(throws: URLError.self) { try await transport(Self.request("/a")) }
        await #expect(throws: URLError.self) { try await transport(Self.request("/a")) }
        #expect(upstream.calls == 2)
        #expect(cache.count == 0)
    }

    @Test func theLeastRecentlyUsedEntryIsEvictedAndUsingAnEntryKeepsIt() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(maxEntries: 2, clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

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
        let cache = ResponseCache(maxBytes: 10, clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

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
        let transport = compose(upstream.transport, with: .cached(clock: clock))

        let ada = try await transport(Self.request("/me", headers: ["Authorization": "Bearer ada"])).0
        let bob = try await transport(Self.request("/me", headers: ["Authorization": "Bearer bob"])).0
        let adaAgain = try await transport(Self.request("/me", headers: ["authorization": "Bearer ada"])).0

        #expect(upstream.calls == 2)
        #expect(ada != bob)
        #expect(adaAgain == ada)
    }

    @Test func acceptAndAcceptLanguageMatterByDefaultButOtherHeadersDoNot() async throws {
        let upstream = CountingTransport()
        let transport = compose(upstream.transport, with: .cached(clock: clock))

        _ = try await transport(Self.request("/a", headers: ["Accept": "application/json", "X-Request-ID": "1"]))
        _ = try await transport(Self.request("/a", headers: ["Accept": "application/json", "X-Request-ID": "2"]))
        #expect(upstream.calls == 1)
        _ = try await transport(Self.request("/a", headers: ["Accept": "text/html"]))
        _ = try await transport(Self.request("/a", headers: ["Accept": "application/json", "Accept-Language": "fr"]))
        #expect(upstream.calls == 3)
    }

    @Test func theHeadersThatMatterCanBeChosen() async throws {
        let upstream = CountingTransport()
        let transport = compose(upstream.transport, with: .cached(varyingOn: .only(["X-Tenant"]), clock: clock))

        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "1", "Authorization": "ada"]))
        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "1", "Authorization": "bob"]))
        _ = try await transport(Self.request("/a", headers: ["X-Tenant": "2"]))

        #expect(upstream.calls == 2)
    }

    @Test func identicalRequestsFromTwoURLRequestInstancesHitTheSameEntry() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":7}"#) }
        defer { server.stop() }
        let transport = makeTestSession().transport(with: .cached(clock: clock))

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
        let transport = compose(upstream.transport, with: .cached(clock: clock))

        let first = try await transport(Self.request("/a")).0
        let refreshed = try await transport(Self.request("/a", headers: ["Cache-Control": "no-cache"])).0
        let afterwards = try await transport(Self.request("/a")).0

        #expect(upstream.calls == 2)
        #expect(refreshed != first)
        #expect(afterwards == refreshed)
    }

    @Test func aRequestAskingForNoStoreNeitherReadsNorWritesTheCache() async throws {
        let upstream = CountingTransport()
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

        _ = try await transport(Self.request("/a", headers: ["Cache-Control": "no-store"]))
        #expect(cache.count == 0)
        _ = try await transport(Self.request("/a"))
        _ = try await transport(Self.request("/a", headers: ["Cache-Control": "no-store"]))
        #expect(upstream.calls == 3)
        #expect(cache.count == 1)
    }

    @Test func aRequestMaxAgeLimitsTheAgeOfTheResponseItAccepts() async throws {
        let upstream = CountingTransport()
        let transport = compose(upstream.transport, with: .cached(timeToLive: .seconds(60), clock: clock))

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
        let cache = ResponseCache(clock: clock)
        let transport = compose(upstream.transport, with: .cached(in: cache))

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
        let cache = ResponseCache(timeToLive: .seconds(1), clock: clock)
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
