import Foundation
import FunctionalNetworking
import Futures
import Testing

@testable import FunctionalNetworkingTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of the `///` comments of Sources/FunctionalNetworkingTesting, one suite per
// source file, each sample inside a test as the comment shows it, with what it needs declared
// around it, against LoopbackServers on 127.0.0.1 and stubs.

/// Collects the values of a block written one expression a line, as a doc comment lists them.
@resultBuilder
enum Listed<Element> {
    static func buildBlock(_ elements: Element...) -> [Element] { elements }
}

func listed<Element>(@Listed<Element> _ body: () -> [Element]) -> [Element] { body() }

fileprivate struct Product: Codable, Equatable, Sendable {
    typealias ID = Int
    let id: ID
    let name: String
}

extension Endpoint {
    fileprivate static func product(withID id: Product.ID) -> Endpoint {
        Endpoint(baseURL: URL(string: "https://shop.example")!, path: "/products/\(id)")
    }
}

/// Computed, not stored: a global `Data` holds its storage behind a tagged pointer, which
/// LeakSanitizer cannot see and reports as a leak.
fileprivate var productJSON: Data { Data(#"{"id":7,"name":"iPad Pro"}"#.utf8) }

/// A session whose requests are bounded by a timeout, with room for ten connections at once.
fileprivate func makeDocSession() -> URLSession {
    HTTPClient.makeSession(maxConnectionsPerHost: 16)
}

// MARK: - LoopbackServer+BodyRecording.swift

@Suite("Doc-comment samples: LoopbackServer+BodyRecording.swift")
struct LoopbackServerBodyRecordingDocCommentSamplesTests {
    @Test func aDigestOnlyServerKeepsTheSizeAndCRCOfAnUpload() async throws {
        let archiveURL = FileManager.default.temporaryDirectory.appendingPathComponent("doc-sample-\(UUID().uuidString).bin")
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: archiveURL)
        defer { try? FileManager.default.removeItem(at: archiveURL) }
        let session = makeDocSession()
        defer { session.invalidateAndCancel() }

        let server = try LoopbackServer(bodyRecording: .digestOnly) { _ in .status(201) }
        var upload = URLRequest(url: server.url(for: "/archive"))
        upload.httpMethod = "PUT"
        _ = try await session.upload(for: upload, fromFile: archiveURL)
        let request = try #require(await server.takeRequest())
        #expect(request.bodyDigest == (try LoopbackServer.BodyDigest(contentsOf: archiveURL)))

        #expect(request.bodyDigest.byteCount == 100_000)
        #expect(request.isBodyDiscarded)
        server.stop()
    }

    @Test func aDigestUpdatedInPiecesEqualsTheDigestOfTheWhole() {
        var digest = LoopbackServer.BodyDigest()
        digest.update(with: Data("1234".utf8))
        digest.update(with: Data("56789".utf8))
        // digest == LoopbackServer.BodyDigest(Data("123456789".utf8))
        // digest.byteCount == 9, digest.crc32 == 0xCBF43926

        #expect(digest == LoopbackServer.BodyDigest(Data("123456789".utf8)))
        #expect(digest.byteCount == 9)
        #expect(digest.crc32 == 0xCBF4_3926)
    }
}

// MARK: - LoopbackServer+Header.swift

@Suite("Doc-comment samples: LoopbackServer+Header.swift")
struct LoopbackServerHeaderDocCommentSamplesTests {
    @Test func aRepeatedHeaderIsSentOnceForEachValue() async throws {
        let response = LoopbackServer.Response.text(
            "hi",
            headers: [
                .init("Set-Cookie", "a=1"),
                .init("Set-Cookie", "b=2"),
            ])

        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
    }
}

// MARK: - LoopbackServer+ReasonPhrase.swift

@Suite("Doc-comment samples: LoopbackServer+ReasonPhrase.swift")
struct LoopbackServerReasonPhraseDocCommentSamplesTests {
    @Test func aStatusHasItsPhraseOrItsClasssPhrase() {
        let phrases = listed {
            LoopbackServer.reasonPhrase(for: 404)  // "Not Found"
            LoopbackServer.reasonPhrase(for: 599)  // "Server Error"
        }

        #expect(phrases == ["Not Found", "Server Error"])
    }
}

// MARK: - LoopbackServer+RecordedRequest.swift

@Suite("Doc-comment samples: LoopbackServer+RecordedRequest.swift")
struct LoopbackServerRecordedRequestDocCommentSamplesTests {
    @Test func aRecordedRequestHasItsMethodPathHeadersAndBody() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.status(201))
            var sent = URLRequest(url: server.url(for: "/users"))
            sent.httpMethod = "POST"
            sent.setValue("application/json", forHTTPHeaderField: "Content-Type")
            sent.httpBody = Data(#"{"name":"Ada"}"#.utf8)
            #expect(try await HTTPClient.send(sent, with: session).response.statusCode == 201)

            let request = try #require(await server.takeRequest())
            #expect(request.method == "POST")
            #expect(request.path == "/users")
            #expect(request.header("content-type") == "application/json")
            #expect(request.bodyText == #"{"name":"Ada"}"#)
        }
    }

    @Test func aKeptBodyHasTheDigestOfTheFileSent() async throws {
        let sentFile = FileManager.default.temporaryDirectory.appendingPathComponent("doc-sample-\(UUID().uuidString).txt")
        try Data("the file sent".utf8).write(to: sentFile)
        defer { try? FileManager.default.removeItem(at: sentFile) }

        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.status(201))
            var upload = URLRequest(url: server.url(for: "/files"))
            upload.httpMethod = "PUT"
            _ = try await session.upload(for: upload, fromFile: sentFile)
            let request = try #require(await server.takeRequest())

            #expect(request.bodyDigest == (try LoopbackServer.BodyDigest(contentsOf: sentFile)))
            #expect(request.bodyText == "the file sent")
        }
    }
}

// MARK: - LoopbackServer+Requests.swift

@Suite("Doc-comment samples: LoopbackServer+Requests.swift")
struct LoopbackServerRequestsDocCommentSamplesTests {
    @Test func synchronousCodeWaitsForARequestOnItsThread() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let session = makeDocSession()
        defer { session.invalidateAndCancel() }
        session.dataTask(with: server.url(for: "/sync")).resume()

        let request = server.takeRequest(timeout: .seconds(2))

        #expect(request?.path == "/sync")
    }

    @Test func asyncCodeSuspendsForARequest() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.text("ok"))
            _ = try await HTTPClient.get(server.url(for: "/ping"), with: session)

            let request = try #require(await server.takeRequest())
            #expect(request.method == "GET")
        }
    }

    @Test func tenRequestsAtOnceAreTenInFlight() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let session = makeDocSession()
        defer { session.invalidateAndCancel() }

        server.dispatcher = { _ in .text("ok").delayed(by: .milliseconds(200)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = try await session.data(from: server.url(for: "/")) } }
            try await group.waitForAll()
        }
        #expect(server.peakConcurrentRequests == 10)
    }
}

// MARK: - LoopbackServer+Response.swift

@Suite("Doc-comment samples: LoopbackServer+Response.swift")
struct LoopbackServerResponseDocCommentSamplesTests {
    @Test func queuedResponsesAnswerRequestsInOrder() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.json(#"{"id": 1}"#))
            server.enqueue(.text("slow", status: 200).delayed(by: .milliseconds(200)))
            server.enqueue(LoopbackServer.Response(status: 503, headers: [.init("Retry-After", "1")]))
            server.enqueue(.status(200).withFault(.closeMidBody))

            #expect(server.queuedResponseCount == 4)
            #expect(try await HTTPClient.get(server.url(for: "/1"), with: session).body.text == #"{"id": 1}"#)
            #expect(try await HTTPClient.get(server.url(for: "/2"), with: session).body.text == "slow")
            let unavailable = try await HTTPClient.get(server.url(for: "/3"), with: session).response
            #expect(unavailable.statusCode == 503)
            #expect(unavailable.value(forHTTPHeaderField: "Retry-After") == "1")
        }
    }
}

// MARK: - LoopbackServer+ResponseBehaviour.swift

@Suite("Doc-comment samples: LoopbackServer+ResponseBehaviour.swift")
struct LoopbackServerResponseBehaviourDocCommentSamplesTests {
    @Test func faultsFailTheRequest() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.fault(.closeAtStart))  // connection dropped before reading
            server.enqueue(.text("abcdef").withFault(.closeMidBody))  // "abc", then closed

            await #expect(throws: (any Error).self) { try await HTTPClient.get(server.url(for: "/1"), with: session) }
            await #expect(throws: (any Error).self) { try await HTTPClient.get(server.url(for: "/2"), with: session) }
            #expect(server.queuedResponseCount == 0)
        }
    }

    @Test func aThrottledBodyArrivesWhole() async throws {
        let big = String(repeating: "0123456789abcdef", count: 256)

        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.text(big).throttled(bytesPerPeriod: 1024, period: .milliseconds(10)))

            #expect(try await HTTPClient.get(server.url(for: "/big"), with: session).body.text == big)
        }
    }

    @Test func repeatedBodiesAreQueuedAsOneResponseEach() throws {
        let server = try LoopbackServer()
        defer { server.stop() }

        server.enqueue(LoopbackServer.Response(body: Data(count: 1_048_576)).repeated(.times(200)))  // 200 MiB
        server.enqueue(LoopbackServer.Response(body: Data(count: 65_536)).repeated(.forever))  // never ends

        #expect(server.queuedResponseCount == 2)
    }

    @Test func addingAHeaderKeepsTheOnesBefore() {
        let response: LoopbackServer.Response =
            .text("ok").addingHeader("Set-Cookie", "a=1").addingHeader("Set-Cookie", "b=2")

        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
    }
}

// MARK: - LoopbackServer+ResponseFactories.swift

@Suite("Doc-comment samples: LoopbackServer+ResponseFactories.swift")
struct LoopbackServerResponseFactoriesDocCommentSamplesTests {
    @Test func jsonTextAndStatusResponsesAnswerAsWritten() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.json(#"{"name": "Ada"}"#, status: 201))
            struct User: Encodable { let id: Int }
            server.enqueue(try .json(User(id: 7)))
            server.enqueue(.text("hello"))
            server.enqueue(.text("gone", status: 410))
            server.enqueue(.status(204))

            let created = try await HTTPClient.get(server.url(for: "/1"), with: session)
            #expect(created.response.statusCode == 201)
            #expect(created.response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
            #expect(try await HTTPClient.get(server.url(for: "/2"), with: session).body.text == #"{"id":7}"#)
            #expect(try await HTTPClient.get(server.url(for: "/3"), with: session).body.text == "hello")
            let gone = try await HTTPClient.get(server.url(for: "/4"), with: session)
            #expect(gone.response.statusCode == 410)
            #expect(gone.body.text == "gone")
            #expect(try await HTTPClient.get(server.url(for: "/5"), with: session).response.statusCode == 204)
        }
    }

    @Test func aRedirectIsFollowedToTheNewPath() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.redirect(to: server.url(for: "/new")))
            server.enqueue(.text("moved here"))

            #expect(try await HTTPClient.get(server.url(for: "/old"), with: session).body.text == "moved here")
            #expect(await server.takeRequest()?.path == "/old")
            #expect(await server.takeRequest()?.path == "/new")
        }
    }

    @Test func aFaultClosesTheConnectionAfterTheRequest() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.fault(.closeAfterRequest))

            await #expect(throws: (any Error).self) { try await HTTPClient.get(server.url(for: "/"), with: session) }
            #expect(await server.takeRequest()?.path == "/")
        }
    }
}

// MARK: - LoopbackServer.swift

@Suite("Doc-comment samples: LoopbackServer.swift")
struct LoopbackServerDocCommentSamplesTests {
    @Test func aServerAnswersFromItsQueueAndRecordsTheRequest() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.json(#"{"ok": true}"#))

        let (data, _) = try await URLSession.shared.data(from: server.url(for: "/status"))

        let request = try #require(await server.takeRequest())
        #expect(request.path == "/status")

        #expect(data.text == #"{"ok": true}"#)
    }

    @Test func aDispatcherAnswersByPath() async throws {
        let session = makeDocSession()
        defer { session.invalidateAndCancel() }

        let server = try LoopbackServer { request in
            request.path == "/health" ? .text("ok") : .status(404)
        }
        defer { server.stop() }

        #expect(try await HTTPClient.get(server.url(for: "/health"), with: session).body.text == "ok")
        #expect(try await HTTPClient.get(server.url(for: "/other"), with: session).response.statusCode == 404)
    }

    @Test func urlForAPathKeepsItsQueryAndAddsALeadingSlash() throws {
        let server = try LoopbackServer()
        defer { server.stop() }

        let urls = listed {
            server.url(for: "/users?page=2")  // http://127.0.0.1:54321/users?page=2
            server.url(for: "users")  // http://127.0.0.1:54321/users
        }

        #expect(urls.map(\.absoluteString) == ["http://127.0.0.1:\(server.port)/users?page=2", "http://127.0.0.1:\(server.port)/users"])
    }

    @Test func enqueuedResponsesAnswerInOrder() async throws {
        try await HTTPClient.withServer { server, session async throws in
            server.enqueue(.text("first"))
            server.enqueue(.status(500))

            #expect(try await HTTPClient.get(server.url(for: "/"), with: session).body.text == "first")
            #expect(try await HTTPClient.get(server.url(for: "/"), with: session).response.statusCode == 500)
        }
    }
}

// MARK: - LoopbackServerError.swift

@Suite("Doc-comment samples: LoopbackServerError.swift")
struct LoopbackServerErrorDocCommentSamplesTests {
    @Test func aServerThatStartsIsRunningAndRecordsNoIssue() throws {
        do {
            let server = try LoopbackServer()
            defer { server.stop() }
            #expect(server.isRunning)
        } catch let error as LoopbackServerError {
            Issue.record("\(error)")
        }
    }
}

// MARK: - Stubs.swift

fileprivate final class ProductLoader {
    private let networking: Networking

    init(networking: @escaping Networking) {
        self.networking = networking
    }

    func loadProduct(withID id: Product.ID) -> Future<Product> {
        networking(.product(withID: id)).decoded()
    }
}

@Suite("Doc-comment samples: Stubs.swift")
struct StubsDocCommentSamplesTests {
    @Test func aStubTransportAnswersWithItsData() async throws {
        let transport = stubTransport(data: Data(#"{"id":7,"name":"iPad Pro"}"#.utf8))
        let product: Product = try await networking(from: transport)(.product(withID: 7)).decoded().value

        #expect(product == Product(id: 7, name: "iPad Pro"))
    }

    @Test func aStubTransportAnswersByRequest() async throws {
        let transport = stubTransport { request in
            request.url?.path == "/products/7"
                ? (productJSON, stubResponse(for: request)) : (Data(), stubResponse(for: request, status: 404))
        }

        let product: Product = try await networking(from: transport)(.product(withID: 7)).decoded().value
        #expect(product.name == "iPad Pro")
        await #expect(throws: HTTPStatusError.self) { try await networking(from: transport)(.product(withID: 8)).value }
    }

    @Test func stubNetworkingFeedsALoader() async throws {
        let loader = ProductLoader(networking: stubNetworking(data: productJSON))

        #expect(try await loader.loadProduct(withID: 7).value == Product(id: 7, name: "iPad Pro"))
    }
}

// MARK: - TestClock.swift

@Suite("Doc-comment samples: TestClock.swift")
struct TestClockDocCommentSamplesTests {
    @Test func advancingTheClockReleasesTheDelayedValue() async throws {
        let clock = TestClock()
        let delayed = Future(value: 1).delay(for: .seconds(5), clock: clock)
        clock.advance(by: .seconds(5))
        #expect(try await delayed.value == 1)
    }
}
