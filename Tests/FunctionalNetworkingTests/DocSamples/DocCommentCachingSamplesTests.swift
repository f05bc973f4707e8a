import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples in the doc comments of Sources/FunctionalNetworking/Composers/Cache,
// Deduplication and Throttling, one suite per source file. Stacks on `NetworkSession.shared`
// send to a LoopbackServer on 127.0.0.1.

/// A server whose every answer may be cached for a minute.
private func makeCacheableServer(delay: Duration = .zero) throws -> LoopbackServer {
    try LoopbackServer { _ in .json(#"{"id":7,"name":"iPad Pro"}"#).settingHeader("Cache-Control", "max-age=60").delayed(by: delay) }
}

/// An authenticator with `token` for the origin of `url`.
private func authenticator(for url: URL, store: CredentialStore = CredentialStore(.bearer("t0ken"))) -> Authenticator {
    Authenticator(store: store, allowedOrigins: [Origin(url: url)!])
}

@Suite("Doc comment samples: Composer+Cache.swift")
struct ComposerCacheDocCommentSamplesTests {
    @Test func aCacheBelowAuthenticationAnswersTheSecondRequest() async throws {
        let server = try makeCacheableServer()
        let auth = authenticator(for: server.baseURL)
        let cache = ResponseCache(maxEntries: 500)
        let transport = NetworkSession.shared.transport(
            with:
                .cached(in: cache),
            .authenticated(by: auth),  // placed above the cache, which so sees the credential
            .retry()
        )
        let request = URLRequest(url: server.url(for: "/products/7"))
        _ = try await withDocSampleTimeLimit { try await transport(request) }
        _ = try await withDocSampleTimeLimit { try await transport(request) }
        #expect(server.requestCount == 1)
        #expect(cache.count == 1)
    }

    @Test func aCacheOfItsOwn() async throws {
        let server = try makeCacheableServer()
        let transport = NetworkSession.shared.transport(with: .cached(), .retry())
        let request = URLRequest(url: server.url(for: "/products/7"))
        _ = try await withDocSampleTimeLimit { try await transport(request) }
        _ = try await withDocSampleTimeLimit { try await transport(request) }
        #expect(server.requestCount == 1)
    }
}

@Suite("Doc comment samples: ResponseCache.swift")
struct ResponseCacheDocCommentSamplesTests {
    @Test func aCacheCountsAndEmptiesItsResponses() async throws {
        let server = try makeCacheableServer()
        let store = CredentialStore(.bearer("t0ken"))
        let auth = authenticator(for: server.baseURL, store: store)
        let values = try await awaitedSampleLines {
            let cache = ResponseCache(maxEntries: 500, maxBytes: 20_000_000)
            cache.removesResponses(ofCredentialsReplacedIn: store)  // sign-out frees the user's entries
            let transport = NetworkSession.shared.transport(with: .authenticated(by: auth), .cached(in: cache), .retry())
            // …
            cache.count  // responses held now
            cache.removeAll()  // after a sign-out of a cookie session
            _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
            cache.count
        }
        #expect(values[0] as? Int == 0)
        #expect(values[1] as? Int == 1)
    }

    @Test func aCacheGuessesFreshnessWhenAsked() {
        let testClock = TestClock()
        let cache = ResponseCache(maxEntries: 200)
        let guessing = ResponseCache(heuristicFreshness: .seconds(60), clock: testClock)
        #expect(cache.maxEntries == 200)
        #expect(guessing.heuristicFreshness == .seconds(60))
    }

    @Test func aHeldResponseCanBeReadWithoutSending() async throws {
        let server = try makeCacheableServer()
        let productURL = server.url(for: "/products/7")
        let cache = ResponseCache()
        let shown = Collected<Data>()
        func show(_ data: Data) { shown.append(data) }
        _ = try await withDocSampleTimeLimit {
            try await NetworkSession.shared.transport(with: .cached(in: cache))(URLRequest(url: productURL))
        }
        if case (let data, _)? = cache.cachedResponse(for: URLRequest(url: productURL)) { show(data) }
        #expect(shown.values.first.map { String(decoding: $0, as: UTF8.self) } == #"{"id":7,"name":"iPad Pro"}"#)
    }

    @Test func theResponsesOfACredentialCanBeRemoved() async throws {
        let server = try makeCacheableServer()
        let oldToken = "t0ken"
        let cache = ResponseCache()
        let transport = NetworkSession.shared.transport(with: .authenticated(by: authenticator(for: server.baseURL)), .cached(in: cache))
        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        #expect(cache.count == 1)
        cache.removeResponses(fetchedWith: .bearer(oldToken))
        #expect(cache.count == 0)
    }

    @Test func signingOutRemovesTheUsersResponses() async throws {
        let store = CredentialStore(.bearer("t0ken"))
        let cache = ResponseCache()
        cache.removesResponses(ofCredentialsReplacedIn: store)
        await store.store(nil)  // signed out: the user's responses are gone
        #expect(cache.count == 0)
        #expect(await store.credential == nil)
    }
}

@Suite("Doc comment samples: Composer+Deduplication.swift")
struct ComposerDeduplicationDocCommentSamplesTests {
    @Test func tenViewsAskingAtOnceMakeOneRequest() async throws {
        let server = try makeCacheableServer(delay: .milliseconds(300))
        let auth = authenticator(for: server.baseURL)
        let transport = NetworkSession.shared.transport(
            with:
                .deduplicated(matching: .all(except: ["X-Request-ID"])),
            .authenticated(by: auth),
            .retry()
        )
        // Ten views asking for the same product at once make one request.
        let views = (0..<10).map { index in
            Future {
                var request = URLRequest(url: server.url(for: "/products/7"))
                request.setValue("\(index)", forHTTPHeaderField: "X-Request-ID")
                return try await transport(request).0
            }
        }
        for view in views {
            _ = try await view.value(within: .seconds(30))
        }
        #expect(server.requestCount == 1)
    }

    @Test func aDeduplicatorOfYourOwn() async throws {
        let server = try makeCacheableServer()
        let deduplicator = RequestDeduplicator()
        let transport = NetworkSession.shared.transport(with: .deduplicated(by: deduplicator))
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/a"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(deduplicator.inFlightCount == 0)
    }
}

@Suite("Doc comment samples: RequestDeduplicator.swift")
struct RequestDeduplicatorDocCommentSamplesTests {
    @Test func theDeduplicatorCountsTheDistinctCallsRunning() async throws {
        let server = try makeCacheableServer(delay: .milliseconds(500))
        let request = URLRequest(url: server.url(for: "/a"))
        let values = try await awaitedSampleLines {
            let deduplicator = RequestDeduplicator(matching: .all(except: ["X-Request-ID"]))
            let transport = NetworkSession.shared.transport(with: .deduplicated(by: deduplicator))
            deduplicator.inFlightCount  // distinct upstream calls running now
            let calls = (0..<3).map { _ in Future { try await transport(request) } }
            _ = try await withDocSampleTimeLimit { for call in calls { _ = try await call.value } }
        }
        #expect(values[0] as? Int == 0)
        #expect(server.requestCount == 1)
    }

    @Test func theDefaultMatchesSafeMethodsOnAllTheirHeaders() {
        let deduplicator = RequestDeduplicator()  // GET, HEAD, OPTIONS, TRACE; all headers matter
        #expect(!deduplicator.includesUnsafeMethods)
    }
}

@Suite("Doc comment samples: Composer+Throttling.swift")
struct ComposerThrottlingDocCommentSamplesTests {
    @Test func eachAttemptTakesASlot() async throws {
        let server = try makeCacheableServer(delay: .milliseconds(100))
        let transport = NetworkSession.shared.transport(
            with:
                .retry(),
            .throttled(maxConcurrent: 8, perHost: 4)  // each attempt takes a slot
        )
        let calls = (0..<8).map { index in Future { try await transport(URLRequest(url: server.url(for: "/\(index)"))) } }
        for call in calls {
            _ = try await call.value(within: .seconds(30))
        }
        #expect(server.peakConcurrentRequests <= 4)
    }

    @Test func aThrottleOfYourOwn() async throws {
        let server = try makeCacheableServer()
        let throttle = RequestThrottle(maxConcurrent: 8)
        let transport = NetworkSession.shared.transport(with: .throttled(by: throttle))
        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/a"))) }
        #expect(throttle.inFlightCount == 0)
    }
}

@Suite("Doc comment samples: RequestThrottle.swift")
struct RequestThrottleDocCommentSamplesTests {
    @Test func twoStacksShareOneThrottle() async throws {
        // Answers slow enough that the queue is still there when it is read again, under load.
        let server = try makeCacheableServer(delay: .seconds(3))
        let values = try await awaitedSampleLines {
            let throttle = RequestThrottle(maxConcurrent: 8, perHost: 4)
            let images = NetworkSession.shared.transport(with: .throttled(by: throttle))
            let api = NetworkSession.shared.transport(with: .retry(), .throttled(by: throttle))
            throttle.waitingCount  // requests queued now
            let calls =
                (0..<3).map { index in Future { try await images(URLRequest(url: server.url(for: "/image/\(index)"))) } }
                + (0..<3).map { index in Future { try await api(URLRequest(url: server.url(for: "/api/\(index)"))) } }
            _ = try await withDocSampleTimeLimit { while throttle.waitingCount < 2 { try await Task.sleep(for: .milliseconds(5)) } }
            throttle.waitingCount  // requests queued now
            _ = try await withDocSampleTimeLimit { for call in calls { _ = try await call.value } }
        }
        #expect(values[0] as? Int == 0)  // nothing sent yet
        #expect(values[1] as? Int == 2)  // six calls, four slots for the host
        #expect(server.peakConcurrentRequests <= 4)
    }

    @Test func aThrottleOfSix() {
        let throttle = RequestThrottle(maxConcurrent: 6)
        #expect(throttle.maxConcurrent == 6)
        #expect(throttle.maxPerHost == nil)
    }
}
