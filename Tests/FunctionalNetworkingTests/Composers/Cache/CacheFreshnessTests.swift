import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Freshness and revalidation (RFC 9111 §4.2, §4.3): what a response says decides how long it
/// is kept, and a stale one with a validator is revalidated and served again on a 304.
@Suite("Composer.cached: freshness and revalidation")
struct CacheFreshnessTests {
    let clock = TestClock()
    static let url = URL(string: "https://shop.test/items/7")!

    @Test func aResponseWithoutFreshnessInformationIsNotKeptByDefault() async throws {
        let upstream = ScriptedTransport { _, _ in (200, [:], "v1") }
        let cache = ResponseCache(clock: clock)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        #expect(upstream.requests.count == 2)
        #expect(cache.count == 0)
    }

    @Test func heuristicFreshnessIsTheNamedOptionThatKeepsSuchAResponse() async throws {
        let upstream = ScriptedTransport { _, _ in (200, [:], "v1") }
        let cache = ResponseCache(heuristicFreshness: .seconds(30), clock: clock)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        clock.advance(by: .seconds(29))
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        #expect(upstream.requests.count == 1)
    }

    @Test func expiresMinusDateIsTheLifetime() async throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let headers = ["Date": HTTPDate.format(date), "Expires": HTTPDate.format(date.addingTimeInterval(120))]
        let upstream = ScriptedTransport { _, _ in (200, headers, "v1") }
        let cache = ResponseCache(clock: clock)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        clock.advance(by: .seconds(119))
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        #expect(upstream.requests.count == 1)
        clock.advance(by: .seconds(1))
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        #expect(upstream.requests.count == 2)
    }

    @Test func aStaleEntryIsRevalidatedWithIfNoneMatchAndA304ServesTheStoredBody() async throws {
        let upstream = ScriptedTransport { number, request in
            if number == 1 { return (200, ["Cache-Control": "max-age=10", "ETag": "\"v1\"", "X-Version": "1"], "the body") }
            #expect(request.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
            return (304, ["Cache-Control": "max-age=60", "X-Version": "2"], "")
        }
        let cache = ResponseCache(clock: clock)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        clock.advance(by: .seconds(10))

        let (data, response) = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        let http = try #require(response as? HTTPURLResponse)
        #expect(data == Data("the body".utf8))
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "X-Version") == "2")  // updated by the 304 (§4.3.4)
        #expect(http.value(forHTTPHeaderField: "ETag") == "\"v1\"")
        #expect(upstream.requests.count == 2)

        clock.advance(by: .seconds(59))  // fresh again for the 304's max-age
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        #expect(upstream.requests.count == 2)
    }

    @Test func lastModifiedIsSentBackAsIfModifiedSince() async throws {
        let modified = "Tue, 14 Nov 2023 22:13:20 GMT"
        let upstream = ScriptedTransport { number, request in
            if number == 1 { return (200, ["Cache-Control": "max-age=1", "Last-Modified": modified], "old") }
            #expect(request.value(forHTTPHeaderField: "If-Modified-Since") == modified)
            return (304, [:], "")
        }
        let cache = ResponseCache(clock: clock)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        clock.advance(by: .seconds(2))
        #expect(try await cache.send(URLRequest(url: Self.url), through: upstream.transport).0 == Data("old".utf8))
    }

    @Test func aNewBodyOnRevalidationReplacesTheEntry() async throws {
        let upstream = ScriptedTransport { number, _ in
            (200, ["Cache-Control": "max-age=1", "ETag": "\"v\(number)\""], "body \(number)")
        }
        let cache = ResponseCache(clock: clock)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        clock.advance(by: .seconds(1))
        #expect(try await cache.send(URLRequest(url: Self.url), through: upstream.transport).0 == Data("body 2".utf8))
        #expect(try await cache.send(URLRequest(url: Self.url), through: upstream.transport).0 == Data("body 2".utf8))
        #expect(upstream.requests.count == 2)
    }

    @Test func aNoCacheResponseWithAValidatorIsRevalidatedBeforeEveryUse() async throws {
        let upstream = ScriptedTransport { number, _ in
            number == 1 ? (200, ["Cache-Control": "no-cache", "ETag": "\"v1\""], "kept") : (304, [:], "")
        }
        let cache = ResponseCache(clock: clock)
        for _ in 0..<3 {
            #expect(try await cache.send(URLRequest(url: Self.url), through: upstream.transport).0 == Data("kept".utf8))
        }
        #expect(upstream.requests.count == 3)
        #expect(upstream.requests.dropFirst().allSatisfy { $0.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"" })
    }

    @Test func theCallersOwnConditionalRequestAndIts304PassThrough() async throws {
        let upstream = ScriptedTransport { number, _ in
            number == 1 ? (200, ["Cache-Control": "max-age=1", "ETag": "\"v1\""], "body") : (304, [:], "")
        }
        let cache = ResponseCache(clock: clock)
        _ = try await cache.send(URLRequest(url: Self.url), through: upstream.transport)
        clock.advance(by: .seconds(1))
        var conditional = URLRequest(url: Self.url)
        conditional.setValue("\"mine\"", forHTTPHeaderField: "If-None-Match")
        let (data, response) = try await cache.send(conditional, through: upstream.transport)
        #expect((response as? HTTPURLResponse)?.statusCode == 304)
        #expect(data.isEmpty)
        #expect(upstream.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"mine\"")
    }

    @Test func throughNetworkingA304IsTheStoredProductNotAStatusError() async throws {
        let server = try LoopbackServer { request in
            if request.headers.contains(where: { $0.name.lowercased() == "if-none-match" && $0.value == "\"v7\"" }) {
                return .status(304)
            }
            return .json(#"{"id":7,"name":"iPad Pro"}"#, headers: [.init("ETag", "\"v7\""), .init("Cache-Control", "no-cache")])
        }
        defer { server.stop() }
        let send = networking(from: makeTestNetworkSession().transport(with: .cached(clock: clock)))
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/items/7")
        for _ in 0..<2 {
            let product: Product = try await send(endpoint).decoded().value(within: .seconds(30))
            #expect(product == Product(id: 7, name: "iPad Pro"))
        }
        #expect(server.requestCount == 2)
    }
}

/// A transport that answers each call with what `answer` gives for the call's number (from 1)
/// and keeps the requests it was sent.
private final class ScriptedTransport: @unchecked Sendable {
    typealias Answer = (status: Int, headers: [String: String], body: String)
    private let lock = NSLock()
    private var sent: [URLRequest] = []
    private let answer: @Sendable (Int, URLRequest) -> Answer

    init(_ answer: @escaping @Sendable (Int, URLRequest) -> Answer) {
        self.answer = answer
    }

    var requests: [URLRequest] { lock.withLock { sent } }

    var transport: Transport {
        { [self] request in
            let number = lock.withLock {
                sent.append(request)
                return sent.count
            }
            let (status, headers, body) = answer(number, request)
            return (Data(body.utf8), stubResponse(for: request, status: status, headers: headers))
        }
    }
}
