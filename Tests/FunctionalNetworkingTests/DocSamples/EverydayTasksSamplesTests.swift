import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/EverydayTasks.md, as the article shows them, against
// one LoopbackServer on 127.0.0.1 that plays the article's `api`.

/// The server behind `api`: it answers each path the article uses, and checks what it is sent.
private func makeEverydayServer() throws -> LoopbackServer {
    try LoopbackServer { request in
        switch (request.method, request.path) {
        case ("POST", "/products/7/reviews"):
            let sent = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            let rating = sent?["rating"] as? Int ?? 0
            let isJSON = request.header("Content-Type") == "application/json"
            return isJSON && sent?["text"] as? String == "Quiet & fast" ? .json(#"{"id":12,"rating":\#(rating)}"#) : .status(400)
        case ("DELETE", "/reviews/12"):
            return .status(204)
        case ("POST", "/login"):
            let fields = request.formFields ?? []
            let expected = [URLQueryItem(name: "user", value: "ada"), URLQueryItem(name: "password", value: "p@ss word&more")]
            return Set(fields) == Set(expected) ? .text("welcome") : .status(400)
        case (_, "/products/99"):
            return .json(#"{"message":"No product with that id"}"#, status: 404)
        case (_, "/products"):
            return .json(
                #"[{"id":7,"name":"iPad Pro"}]"#,
                headers: [.init("Link", #"</products?page=2>; rel="next""#), .init("ETag", #""v1""#)]
            )
        case (_, "/slow"):
            return LoopbackServer.Response.text("late").delayed(by: .seconds(20))
        case (_, "/me"):
            return request.header("Authorization") == "Bearer fresh-token" ? .json(#"{"id":1,"name":"Ada"}"#) : .status(401)
        case ("PUT", "/backups/photos.zip"):
            let digest = request.bodyDigest
            guard request.header("Content-Type") == "application/zip" else { return .status(415) }
            return .json(#"{"stored":\#(digest.byteCount),"crc32":\#(digest.crc32)}"#, status: 201)
        default:
            return .status(404)
        }
    }
}

/// The part of swift-log's API that the logging sample uses (`Logger(label:)`,
/// `Logger.Level(rawValue:)`, `log(level:_:)`), so that the sample compiles here as an app that
/// depends on swift-log writes it; this one collects the lines.
private struct Logger: Sendable {
    enum Level: String, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }

    static let lines = Collected<String>()
    let label: String

    init(label: String) {
        self.label = label
    }

    func log(level: Level, _ message: String) {
        Self.lines.append("\(label) \(level.rawValue): \(message)")
    }
}

@Suite("Samples: Everyday tasks")
struct EverydayTasksSamplesTests {
    @Test func postJSONAndDecodeTheReply() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL

        struct NewReview: Encodable {
            let rating: Int
            let text: String
        }
        struct Review: Decodable, Sendable {
            let id: Int
            let rating: Int
        }

        let send = networking(from: NetworkSession.shared.transport(with: .validatingStatus()))
        let endpoint = try Endpoint(method: .post, baseURL: api, path: "/products/7/reviews")
            .with(jsonBody: NewReview(rating: 5, text: "Quiet & fast"))
        let review: Review = try await send(endpoint).decoded().value

        #expect(review.id == 12)
        #expect(review.rating == 5)

        let deleted: NoContent = try await send(Endpoint(method: .delete, baseURL: api, path: "/reviews/12")).decoded().value
        #expect(deleted == NoContent())
    }

    @Test func uploadAFileWithProgress() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL
        let send = networking(from: NetworkSession.shared.transport(with: .validatingStatus()))
        let folder = try DownloadTests.Folder()
        let archiveURL = folder.file("photos.zip")
        let archive = DownloadTests.pattern(2_000_000)
        try archive.write(to: archiveURL)
        let fractions = Collected<Double>()
        @Sendable func showProgress(_ fraction: Double) { fractions.append(fraction) }

        let upload = Endpoint(method: .put, baseURL: api, path: "/backups/photos.zip")
            .with(bodyFromFileAt: archiveURL, contentType: "application/zip")
        let fileSize = try archiveURL.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        let receipt = try await withTransferProgress {
            try await send(upload).value
        } onProgress: { progress in
            showProgress(Double(progress.bytesSent) / Double(max(fileSize, 1)))
        }

        let digest = LoopbackServer.BodyDigest(archive)
        #expect(String(decoding: receipt, as: UTF8.self) == #"{"stored":2000000,"crc32":\#(digest.crc32)}"#)
        #expect(fractions.values.last == 1)
        #expect(fractions.values == fractions.values.sorted())
    }

    @Test func downloadToAFileWithProgress() async throws {
        // A server of its own, so that the other tests' servers do not hold the 1.5 MB body.
        let statementBody = DownloadTests.pattern(1_500_000)
        let server = try LoopbackServer { request in
            guard request.path == "/statements/2026-11.pdf" else { return .status(404) }
            return LoopbackServer.Response(headers: [.init("Content-Type", "application/pdf")], body: statementBody)
        }
        defer { server.stop() }
        let api = server.baseURL
        let fractions = Collected<Double>()
        @Sendable func showProgress(_ fraction: Double) { fractions.append(fraction) }

        let statement = Endpoint(baseURL: api, path: "/statements/2026-11.pdf")
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("statement.pdf")
        let downloads = NetworkSession.shared.transport(with: .retry(), .validatingStatus())
        let response = try await withTransferProgress {
            try await download(statement, to: destination, through: downloads)
        } onProgress: { progress in
            if let fraction = progress.fractionReceived { showProgress(fraction) }
        }

        defer { try? FileManager.default.removeItem(at: destination) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try Data(contentsOf: destination) == statementBody)
        #expect(fractions.values.last == 1)
        #expect(fractions.values == fractions.values.sorted())
    }

    @Test func sendAForm() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL

        let form: FormBody = ["user": "ada", "password": "p@ss word&more"]
        let request = try Endpoint(method: .post, baseURL: api, path: "/login").with(body: form).urlRequest()
        let transport = NetworkSession.shared.transport(with: .validatingStatus())
        let (data, response) = try await transport(request)

        #expect(data == Data("welcome".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func queryItemsArriveAsWritten() async throws {
        let server = try LoopbackServer { _ in .text("results") }
        defer { server.stop() }
        let api = server.baseURL

        let search = Endpoint(
            baseURL: api,
            path: "/search",
            queryItems: [
                URLQueryItem(name: "q", value: "iPad Pro 11\" & case"),
                URLQueryItem(name: "price", value: "100+"),
            ]
        )

        #expect(search.url?.absoluteString.hasSuffix("/search?q=iPad%20Pro%2011%22%20%26%20case&price=100%2B") == true)
        _ = try await networking(from: NetworkSession.shared.transport)(search).value(within: .seconds(30))
        let received = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(
            received.queryItems == [URLQueryItem(name: "q", value: "iPad Pro 11\" & case"), URLQueryItem(name: "price", value: "100+")])
    }

    @Test func setHeaders() throws {
        let api = try #require(URL(string: "https://api.example.com/v1"))

        let product = Endpoint(baseURL: api, path: "/products/7")
            .setting(header: "Accept", to: "application/json")
            .adding(header: "X-Request-Source", value: "ios-app")

        let request = try product.urlRequest()
        #expect(request.value(forHTTPHeaderField: "accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "X-Request-Source") == "ios-app")
    }

    @Test func decodeTheServersErrorModel() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL
        let send = networking(from: NetworkSession.shared.transport(with: .validatingStatus()))

        struct Problem: Decodable, Sendable {
            let message: String
        }

        var shown = ""
        do {
            let product = try await send(Endpoint(baseURL: api, path: "/products/99"))
                .decoded(as: Product.self).value
            shown = product.name
        } catch let error as HTTPStatusError {
            shown = try error.decodedBody(as: Problem.self).message  // "No product with that id"
        }

        #expect(shown == "No product with that id")
    }

    @Test func readTheResponsesHeaders() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL

        let sendKeepingHeaders = responseNetworking(from: NetworkSession.shared.transport(with: .validatingStatus()))
        let page: Endpoint.Response<[Product]> = try await sendKeepingHeaders(Endpoint(baseURL: api, path: "/products")).decoded().value
        let products = page.value
        let next = page.headers["Link"]  // the next page, if the server paginates
        let etag = page.headers["ETag"]

        #expect(products == [Product(id: 7, name: "iPad Pro")])
        #expect(next == #"</products?page=2>; rel="next""#)
        #expect(etag == #""v1""#)
        #expect(page.status == 200)
    }

    @Test func logToSwiftLog() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL

        let logger = Logger(label: "shop.network")
        let logged = NetworkSession.shared.transport(
            with: .logged(to: { record in
                logger.log(level: Logger.Level(rawValue: record.level.name) ?? .info, "\(record.message)")
            }),
            .validatingStatus()
        )

        _ = try await logged(URLRequest(url: api.appending(path: "products")))
        let lines = Logger.lines.values.filter { $0.contains("\(api.port ?? 0)/products") }
        #expect(lines.contains { $0.hasPrefix("shop.network debug: → ") })
        #expect(lines.contains { $0.hasPrefix("shop.network info: ← ") })
    }

    @Test func printARequestAsACURLCommand() throws {
        let api = try #require(URL(string: "https://api.example.com/v1"))

        let account = try Endpoint(baseURL: api, path: "/account")
            .setting(header: "Authorization", to: "Bearer s3cret-token")
            .urlRequest()
        let curl = account.curlCommand()  // curl -H 'Authorization: <redacted>' 'https://…/account'

        #expect(curl == "curl -H 'Authorization: <redacted>' 'https://api.example.com/v1/account'")
    }

    @Test func cancelARequest() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL
        let send = networking(from: NetworkSession.shared.transport(with: .validatingStatus()))

        let loading = send(Endpoint(baseURL: api, path: "/slow"))
        loading.cancel()

        let task = Task { try await send(Endpoint(baseURL: api, path: "/slow")).value }
        task.cancel()

        #expect(await loading.result(within: .seconds(30)).failure is CancellationError)
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func refreshABearerToken() async throws {
        let server = try makeEverydayServer()
        defer { server.stop() }
        let api = server.baseURL
        let savedToken = "expired-token"
        let refreshes = Collected<String>()
        @Sendable func refreshToken(replacing expired: Credential?) async throws -> Credential {
            refreshes.append("\(expired.map { "\($0)" } ?? "none")")
            return .bearer("fresh-token")
        }

        let store = CredentialStore(.bearer(savedToken))
        let auth = Authenticator(
            store: store,
            allowedOrigins: [Origin(url: api)!],
            refresh: { expired in try await refreshToken(replacing: expired) }
        )
        let signedIn = networking(from: NetworkSession.shared.transport(with: .authenticated(by: auth), .validatingStatus()))

        let me: Product = try await signedIn(Endpoint(baseURL: api, path: "/me")).decoded().value(within: .seconds(30))
        #expect(me.name == "Ada")
        #expect(refreshes.values.count == 1)
    }

    @Test func retryWithAPolicyOfYourOwn() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("busy", status: 503, headers: [.init("Retry-After", "0")]))
        server.enqueue(.text("ok"))

        let patient = NetworkSession.shared.transport(
            with: .retry(RetryPolicy(maxAttempts: 5, backoff: .exponential(initial: .milliseconds(500), maximum: .seconds(20)))),
            .validatingStatus()
        )

        let data = try await withDocSampleTimeLimit { try await patient(URLRequest(url: server.url(for: "/deals"))).0 }
        #expect(data == Data("ok".utf8))
        #expect(server.requestCount == 2)
    }

    @Test func loadsTheProduct() async throws {
        let server = try LoopbackServer { request in
            request.path == "/products/7" ? .json(#"{"id":7,"name":"iPad Pro"}"#) : .status(404)
        }
        defer { server.stop() }
        let send = networking(from: NetworkSession.shared.transport)
        let product: Product = try await send(Endpoint(baseURL: server.baseURL, path: "/products/7")).decoded().value
        #expect(product.name == "iPad Pro")
    }
}
