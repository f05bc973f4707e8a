import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Work a composer starts for itself gets its own context: a credential refresh gets none of the
/// settings of the request that met the 401 (a download's destination, a status rule, an
/// endpoint's size limit), and callers that share a call keep their own limits. Written with the
/// public API only, as a user's own composer would be.
@Suite("Work a composer starts runs with its own RequestContext")
struct RequestContextIsolationTests {
    /// An API that answers only `Bearer fresh`, and a token endpoint whose answer is 120 bytes.
    static func makeServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.path == "/token" {
                return .json(#"{"access_token":"fresh","refresh_token":"r-\#(String(repeating: "x", count: 60))","expires_in":3600}"#)
            }
            return request.header("Authorization") == "Bearer fresh"
                ? .text("the report, for the holder of the fresh token")
                : .text("who are you?", status: 401)
        }
    }

    /// An authenticator whose refresh asks the token endpoint through `transport`.
    static func authenticator(_ server: LoopbackServer, refreshingThrough transport: @escaping Transport, _ refreshes: Counter)
        -> Authenticator
    {
        Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                var request = URLRequest(url: server.url(for: "/token"))
                request.httpMethod = "POST"
                let (data, _) = try await transport(request)
                struct Token: Decodable { let access_token: String }
                return .bearer(try JSONDecoder().decode(Token.self, from: data).access_token)
            }
        )
    }

    @Test func aRefreshDuringADownloadLeavesTheDownloadInTheFileAndSucceeds() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let session = makeTestNetworkSession()
        let refreshes = Counter()
        let auth = Self.authenticator(server, refreshingThrough: session.transport, refreshes)
        let folder = try DownloadTests.Folder()
        let destination = folder.file("report.txt")
        try await download(
            Endpoint(baseURL: server.baseURL, path: "/report"), to: destination,
            through: session.transport(with: .authenticated(by: auth), .validatingStatus()))
        #expect(try String(contentsOf: destination, encoding: .utf8) == "the report, for the holder of the fresh token")
        #expect(refreshes.value == 1)
        #expect(folder.names == ["report.txt"])
    }

    @Test func aRefreshIsHeldToNeitherTheEndpointsSizeLimitNorItsCallersStatusRule() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let session = makeTestNetworkSession()
        let refreshes = Counter()
        let auth = Self.authenticator(server, refreshingThrough: session.transport, refreshes)
        let send = networking(from: session.transport(with: .authenticated(by: auth), .validatingStatus()))
        // The report is 45 bytes and may be 64; the token's answer (about 120 bytes) is not the
        // report, and is held to the transport's own limit.
        let body = try await send(Endpoint(baseURL: server.baseURL, path: "/report").with(maximumResponseSize: 64)).value
        #expect(String(decoding: body, as: UTF8.self) == "the report, for the holder of the fresh token")
        #expect(refreshes.value == 1)
    }

    @Test func callersJoiningADeduplicatedCallKeepTheirOwnSizeLimits() async throws {
        let upstream = Counter()
        let deduplicator = RequestDeduplicator()
        let report = Endpoint(baseURL: URL(string: "https://shop.test")!, path: "/report")
        let small = report.with(maximumResponseSize: 50)
        for smallFirst in [true, false] {
            // The shared call is held until the second caller has joined it.
            let gate = Promise<Void>()
            let session = NetworkSession(sending: { request in
                upstream.increment()
                try await gate.value
                return (Data(repeating: UInt8(ascii: "x"), count: 100), stubResponse(for: request))
            })
            let send = networking(from: session.transport(with: .deduplicated(by: deduplicator)))
            let first = send(smallFirst ? small : report)
            let second = send(smallFirst ? report : small)
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(30))
            while deduplicator.waitingCount < 2, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(deduplicator.waitingCount == 2, "the second caller joined the call the first makes")
            gate.resolve(with: ())
            let (firstOutcome, secondOutcome) = (await first.result(within: .seconds(30)), await second.result(within: .seconds(30)))
            let (smallOutcome, largeOutcome) = smallFirst ? (firstOutcome, secondOutcome) : (secondOutcome, firstOutcome)
            #expect(try largeOutcome.get().count == 100)
            #expect(throws: TransportError.responseTooLarge(limit: 50, url: "https://shop.test/report")) { try smallOutcome.get() }
        }
        #expect(upstream.value == 2, "each round's callers shared one call")
    }

    @Test func aComposerOfOneselfReadsTheCallsIDAndLetsDownloadsPass() async throws {
        let server = try LoopbackServer { _ in .text("the quarterly report") }
        defer { server.stop() }
        let cache = TinyCache()
        let transport = makeTestNetworkSession().transport(with: .numbered(), .tinyCache(cache))
        let send = networking(from: transport)
        let report = Endpoint(baseURL: server.baseURL, path: "/report")

        #expect(String(decoding: try await send(report).value(within: .seconds(30)), as: UTF8.self) == "the quarterly report")
        let folder = try DownloadTests.Folder()
        let destination = folder.file("report.txt")
        try await download(Endpoint(baseURL: server.baseURL, path: "/report"), to: destination, through: transport)
        #expect(String(decoding: try await send(report).value(within: .seconds(30)), as: UTF8.self) == "the quarterly report")

        #expect(try String(contentsOf: destination, encoding: .utf8) == "the quarterly report")
        #expect(server.requestCount == 2, "the first call and the download went upstream; the last call was a hit")
        #expect(cache.downloadsPassed == 1)
        #expect(Set(cache.ids).count == 3, "three calls, three ids")
    }
}

/// A cache a user writes with the public API only: keeps bodies by URL, lets downloads pass (their
/// body is in a file, not in memory), and notes each call's id.
private final class TinyCache: @unchecked Sendable {
    private let lock = NSLock()
    private var bodies: [URL: (Data, URLResponse)] = [:]
    private var seen: [UUID] = []
    private var passed = 0

    var ids: [UUID] { lock.withLock { seen } }
    var downloadsPassed: Int { lock.withLock { passed } }

    func note(_ context: RequestContext) {
        lock.withLock {
            if let id = context.id { seen.append(id) }
            if context.isDownload { passed += 1 }
        }
    }

    func hit(_ url: URL) -> (Data, URLResponse)? { lock.withLock { bodies[url] } }
    func keep(_ output: (Data, URLResponse), for url: URL) { lock.withLock { bodies[url] = output } }
}

extension Composer {
    fileprivate static func tinyCache(_ cache: TinyCache) -> Composer {
        Composer(at: .cache) { next in
            { request in
                let context = RequestContext.current
                cache.note(context)
                guard !context.isDownload, let url = request.url else { return try await next(request) }
                if let hit = cache.hit(url) { return hit }
                let output = try await next(request)
                cache.keep(output, for: url)
                return output
            }
        }
    }
}
