import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/WritingAComposer.md, as the article shows them,
// against a LoopbackServer on 127.0.0.1 or stub transports.

extension Composer {
    /// Adds the API key to every request.
    fileprivate static func apiKey(_ key: String) -> Composer {
        Composer { next in
            { request in
                var request = request
                request.setValue(key, forHTTPHeaderField: "X-Api-Key")
                return try await next(request)
            }
        }
    }
}

fileprivate struct NotJSON: Error, CustomStringConvertible {
    let contentType: String?

    var description: String {
        "Expected a JSON response, but its Content-Type is \(contentType ?? "missing")."
    }
}

extension Composer {
    /// Asks for JSON, and fails any response that is not JSON.
    fileprivate static func requiringJSON() -> Composer {
        Composer { next in
            { request in
                var request = request
                request.setValue("application/json", forHTTPHeaderField: "Accept")
                let (data, response) = try await next(request)
                let http = response as? HTTPURLResponse
                let type = http?.value(forHTTPHeaderField: "Content-Type")
                let succeeded = http.map { (200..<300).contains($0.statusCode) } ?? true
                if succeeded, type?.hasPrefix("application/json") != true {
                    throw NotJSON(contentType: type)
                }
                return (data, response)
            }
        }
    }
}

/// The sizes of the bodies kept in memory, by request id.
fileprivate actor BodySizes {
    private(set) var sizes: [UUID: Int] = [:]

    func record(_ size: Int, for id: UUID) {
        sizes[id] = size
    }
}

extension Composer {
    /// Sends the call's id as `X-Request-ID`, and records the size of each body kept in memory.
    fileprivate static func tracked(in sizes: BodySizes) -> Composer {
        Composer { next in
            { request in
                let context = RequestContext.current
                var request = request
                if let id = context.id {
                    request.setValue(id.uuidString, forHTTPHeaderField: "X-Request-ID")
                }
                let (data, response) = try await next(request)
                if let id = context.id, !context.isDownload {
                    await sizes.record(data.count, for: id)
                }
                return (data, response)
            }
        }
    }
}

/// Answers every request with "ok"; the test reads what arrived with `takeRequest`.
fileprivate func makeRecordingServer() throws -> LoopbackServer {
    try LoopbackServer { _ in .text("ok") }
}

@Suite("Samples: Writing a composer")
struct WritingAComposerSamplesTests {
    @Test func theSessionsTransportSendsARequest() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("hello"))
        let url = server.url(for: "/hello")

        let (body, status) = try await withDocSampleTimeLimit {
            let transport: Transport = NetworkSession.shared.transport
            let (data, response) = try await transport(URLRequest(url: url))
            return (String(decoding: data, as: UTF8.self), (response as? HTTPURLResponse)?.statusCode)
        }

        #expect(body == "hello")
        #expect(status == 200)
    }

    @Test func aStackedTransportBecomesANetworkingFunction() async throws {
        let server = try makeShopServer()
        defer { server.stop() }

        let transport = NetworkSession.shared.transport(
            with:
                .retry(),
            .validatingStatus()
        )
        let send = networking(from: transport)  // (Endpoint) -> Future<Data>

        let product: Product = try await send(Endpoint(baseURL: server.baseURL, path: "/products/7")).decoded().value(within: .seconds(30))
        #expect(product == Product(id: 7, name: "iPad Pro"))
    }

    @Test func theComposerListedSecondSeesTheRequestAfterTheFirst() async throws {
        let server = try makeRecordingServer()
        defer { server.stop() }
        let url = server.url(for: "/")

        let transport = NetworkSession.shared.transport(
            with:
                .modifyingRequest { request in
                    var request = request
                    request.setValue("outer", forHTTPHeaderField: "X-Layer")
                    return request
                },
            .modifyingRequest { request in
                var request = request
                request.setValue("inner", forHTTPHeaderField: "X-Layer")
                return request
            }
        )
        // The server receives X-Layer: inner.

        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        let received = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(received.header("X-Layer") == "inner")
    }

    @Test func theAPIKeyComposerAddsItsHeader() async throws {
        let server = try makeRecordingServer()
        defer { server.stop() }
        let url = server.url(for: "/")
        let transport = NetworkSession.shared.transport(with: .apiKey("k-123"))
        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        #expect(await server.takeRequest(timeout: .seconds(30))?.header("X-Api-Key") == "k-123")
    }

    @Test func aRequestModifierBecomesAComposer() async throws {
        let server = try makeRecordingServer()
        defer { server.stop() }
        let url = server.url(for: "/")

        let transport = NetworkSession.shared.transport(
            with: .modifyingRequest { request in
                var request = request
                request.setValue("en", forHTTPHeaderField: "Accept-Language")
                return request
            })

        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        #expect(await server.takeRequest(timeout: .seconds(30))?.header("Accept-Language") == "en")
    }

    @Test func theCompleteStackPassesJSONRefusesTextAndLetsA404Through() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.json(#"{"id":7}"#))
        server.enqueue(.text("not json"))
        server.enqueue(.json(#"{"message":"No such product"}"#, status: 404))
        let apiKey = "k-123"
        let url = server.url(for: "/products/7")

        let transport = NetworkSession.shared.transport(
            with:
                .apiKey(apiKey),
            .requiringJSON(),
            .retry(),
            .validatingStatus()
        )

        let json = try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        #expect(json == Data(#"{"id":7}"#.utf8))
        let first = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(first.header("Accept") == "application/json")
        #expect(first.header("X-Api-Key") == "k-123")

        let notJSON = await #expect(throws: NotJSON.self) {
            try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        }
        #expect(notJSON?.description == "Expected a JSON response, but its Content-Type is text/plain; charset=utf-8.")

        let missing = await #expect(throws: HTTPStatusError.self) {
            try await withDocSampleTimeLimit { try await transport(URLRequest(url: url)).0 }
        }
        #expect(missing?.status == 404)
    }

    @Test func aComposerPlacedBelowRetryLogsEachAttemptAndAWrongOrderIsStillBuiltRight() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("busy", status: 503))
        server.enqueue(.text("ok"))
        let records = Collected<String>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0.message) }
        let cache = ResponseCache()
        let auth = Authenticator(store: CredentialStore(.bearer("t")), allowedOrigins: [Origin(url: server.baseURL)!])

        // One pair of log records per attempt: logging placed below retry.
        let perAttempt = Composer(at: .custom, Composer.logged(to: log).wrapping)
        let transport = NetworkSession.shared.transport(with: .validatingStatus(), .retry(), perAttempt)

        // Listed the wrong way round, and still built right: authentication runs above the cache.
        let shared = NetworkSession.shared.transport(with: .cached(in: cache), .authenticated(by: auth))

        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/"))).0 }
        _ = try await withDocSampleTimeLimit { try await shared(URLRequest(url: server.url(for: "/"))).0 }
        #expect(records.values.count == 4)
    }

    @Test func requiringJSONPassesJSONAndRefusesHTML() async throws {
        let json = stubTransport(data: Data("{}".utf8), headers: ["Content-Type": "application/json"])
        let html = stubTransport(data: Data("<p>hi</p>".utf8), headers: ["Content-Type": "text/html"])
        let request = URLRequest(url: URL(string: "https://shop.example/products/7")!)

        let (data, _) = try await NetworkSession(sending: json).transport(with: .requiringJSON())(request)
        #expect(data == Data("{}".utf8))
        await #expect(throws: NotJSON.self) {
            try await NetworkSession(sending: html).transport(with: .requiringJSON())(request)
        }
    }

    @Test func aComposerReadsTheRequestsContextAndLetsDownloadsPass() async throws {
        let server = try LoopbackServer { _ in .text("hello") }
        defer { server.stop() }
        let sizes = BodySizes()

        let transport = NetworkSession.shared.transport(with: .numbered(), .tracked(in: sizes))

        let id = UUID()
        _ = try await withDocSampleTimeLimit {
            try await RequestContext.withID(id) { try await transport(URLRequest(url: server.url(for: "/a"))) }
        }
        let received = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(received.header("X-Request-ID") == id.uuidString)
        #expect(await sizes.sizes == [id: 5])

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tracked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let downloadID = UUID()
        _ = try await withDocSampleTimeLimit {
            try await RequestContext.withID(downloadID) {
                try await download(Endpoint(baseURL: server.baseURL, path: "/b"), to: file, through: transport)
            }
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "hello")
        #expect(await sizes.sizes[downloadID] == nil)
    }
}
