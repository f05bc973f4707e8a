import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples in the doc comments of Sources/FunctionalNetworking/Networking, Redaction and
// Transport, one suite per source file, against a LoopbackServer on 127.0.0.1 or stub
// transports. `Endpoint.product(withID:)` is the seed's, in SeedTests.swift.

extension Endpoint {
    fileprivate static let orders = URL(string: "https://shop.test")!
    fileprivate static let createCart = Endpoint(method: .post, baseURL: orders, path: "/carts")
    fileprivate static let checkout = Endpoint(method: .post, baseURL: orders, path: "/checkout")
    fileprivate static let catalogue = Endpoint(baseURL: orders, path: "/catalogue")

    fileprivate static func addItem(_ id: Int) -> Endpoint {
        Endpoint(method: .post, baseURL: orders, path: "/cart/items/\(id)")
    }

    fileprivate static func products(page: Int) -> Endpoint {
        Endpoint(baseURL: orders, path: "/products").adding(queryItem: "page", value: "\(page)")
    }
}

extension Counter {
    /// Counts a call, as the `counted` sample asks.
    fileprivate func add(_ id: UUID?) { increment() }
}

extension Composer {
    /// Counts the calls that keep their body in memory, and passes downloads.
    static func counted(_ counter: Counter) -> Composer {
        Composer { next in
            { request in
                let context = RequestContext.current
                if !context.isDownload {
                    counter.add(context.id)
                }
                return try await next(request)
            }
        }
    }
}

/// Computed, not stored: a global `Data` holds its storage behind a tagged pointer, which
/// LeakSanitizer cannot see and reports as a leak.
private var productJSON: Data { Data(#"{"id":7,"name":"iPad Pro"}"#.utf8) }

@Suite("Doc comment samples: Endpoint.Response.swift")
struct EndpointResponseDocCommentSamplesTests {
    @Test func aResponseKeepsTheHeadersWithTheValue() async throws {
        let transport = stubTransport(
            data: productJSON, headers: ["Link": "<https://shop.test/products?page=3>; rel=\"next\"", "ETag": "\"v1\""])
        let pages = stubTransport(data: Data(#"[{"id":7,"name":"iPad Pro"}]"#.utf8), headers: ["Link": "<next>"])
        do {
            let transport = pages
            let send = responseNetworking(from: transport)
            let page: Endpoint.Response<[Product]> = try await send(.products(page: 2)).decoded().value
            let next = page.headers["Link"]  // the value's headers
            let products = page.value  // the decoded value
            #expect(next == "<next>")
            #expect(products.map(\.id) == [7])
        }
        do {
            let send = responseNetworking(from: transport)
            let load: (Int) -> Future<Endpoint.Response<Product>> = chain(chain(Endpoint.product, to: send), to: Future.decoded)
            let product = try await load(7).value
            print(product.value.name, product.headers["ETag"] ?? "no ETag")
            #expect(product.headers["ETag"] == "\"v1\"")
        }
        let endpoint = Endpoint.product(withID: 7)
        let product: Future<Endpoint.Response<Product>> = responseNetworking(from: transport)(endpoint).decoded()
        #expect(try await product.value.value.name == "iPad Pro")
    }

    @Test func aResponseMadeByHandAndMapped() {
        let stub = Endpoint.Response(value: Data("[]".utf8), status: 200, headers: ["ETag": "\"v1\""])
        let response = stub
        let text = response.map { String(decoding: $0, as: UTF8.self) }
        #expect(text.value == "[]")
        #expect(text.headers["ETag"] == "\"v1\"")
    }
}

@Suite("Doc comment samples: Future+Decoded.swift")
struct FutureDecodedDocCommentSamplesTests {
    struct Loader {
        let networking: Networking

        func loadProduct(withID id: Product.ID) -> Future<Product> {
            networking(.product(withID: id)).decoded()
        }
    }

    @Test func aFutureOfDataDecodes() async throws {
        let networking = stubNetworking(data: productJSON)
        #expect(try await Loader(networking: networking).loadProduct(withID: 7).value.name == "iPad Pro")
        let endpoint = Endpoint.product(withID: 7)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let product = networking(endpoint).decoded(as: Product.self, using: decoder)
        #expect(try await product.value.id == 7)
    }
}

@Suite("Doc comment samples: Networking.swift")
struct NetworkingDocCommentSamplesTests {
    final class ProductLoader {
        private let networking: Networking
        init(networking: @escaping Networking = URLSession.shared.request) {
            self.networking = networking
        }
    }

    /// Stands in for the package's session in this suite: the seed's endpoints go to
    /// shop.example, which a test does not reach.
    enum NetworkSession {
        /// Computed: a stored session would keep the product's `Data` where LeakSanitizer
        /// cannot see it.
        static var shared: FunctionalNetworking.NetworkSession { .init(sending: stubTransport(data: productJSON)) }
    }

    @Test func aLoaderTakesItsNetworking() {
        let loader = ProductLoader(networking: stubNetworking(data: productJSON))
        let byDefault = ProductLoader()
        #expect(Mirror(reflecting: loader).children.map(\.label) == ["networking"])
        #expect(Mirror(reflecting: byDefault).children.map(\.label) == ["networking"])
    }

    @Test func networkingFromAStack() async throws {
        let product = try await withDocSampleTimeLimit {
            let transport = NetworkSession.shared.transport(with: .retry(), .validatingStatus())
            let send = networking(from: transport)
            let product: Future<Product> = send(.product(withID: 7)).decoded()
            return try await product.value
        }
        #expect(product.name == "iPad Pro")
    }

    @Test func networkingWithAStack() async throws {
        let session = NetworkSession.shared
        let product = try await withDocSampleTimeLimit {
            let send = session.networking(with: .retry(), .validatingStatus())
            let product: Future<Product> = send(.product(withID: 7)).decoded()
            return try await product.value
        }
        #expect(product.name == "iPad Pro")
    }
}

@Suite("Doc comment samples: NoContent.swift")
struct NoContentDocCommentSamplesTests {
    @Test func anEmptyBodyDecodesAsNoContent() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        let api = server.baseURL
        let networking = networking(from: NetworkSession.shared.transport)
        let deleted: Future<NoContent> = networking(Endpoint(method: .delete, baseURL: api, path: "/items/7")).decoded()
        _ = try await deleted.value(within: .seconds(30))
        #expect(await server.takeRequest()?.method == "DELETE")
    }
}

@Suite("Doc comment samples: SequentialQueue.swift")
struct SequentialQueueDocCommentSamplesTests {
    /// Stands in for the package's session in this suite: a shop that fails the checkout.
    enum NetworkSession {
        static let sent = Collected<String>()
        static let shared = FunctionalNetworking.NetworkSession(
            sending: stubTransport { request in
                sent.append(request.url?.path ?? "")
                guard request.url?.path != "/checkout" else { throw HTTPStatusError(status: 500, url: request.url) }
                return (Data((request.url?.path ?? "").utf8), stubResponse(for: request))
            })
    }

    @Test func theQueueStopsAtTheFirstFailure() async throws {
        try await withDocSampleTimeLimit {
            let queue = SequentialQueue(networking: networking(from: NetworkSession.shared.transport))
            do {
                let bodies = try await queue.run([.createCart, .addItem(7), .checkout]).value
                print(bodies.count)
            } catch let failure as SequentialQueue.Failure {
                // failure.completed: the bodies before it; failure.index: which one failed
                print(failure.completed.count, failure.index)
            }
        }
        #expect(NetworkSession.sent.values == ["/carts", "/cart/items/7", "/checkout"])
    }

    @Test func everyResultIsCollected() async throws {
        let queue = SequentialQueue(
            networking: stubNetworking { endpoint in
                endpoint.path == "/2" ? .failure(URLError(.timedOut)) : .success(Data(endpoint.path.utf8))
            })
        let uploads = (1...3).map { Endpoint(baseURL: URL(string: "https://shop.test")!, path: "/\($0)") }
        let results = try await queue.runCollectingResults(uploads).value  // [Result<Data, any Error>]
        #expect(results.map { $0.success != nil } == [true, false, true])
    }
}

@Suite("Doc comment samples: Redaction.swift")
struct RedactionDocCommentSamplesTests {
    @Test func aRedactionOfYourOwn() {
        var request = URLRequest(url: URL(string: "https://shop.test/cart?ticket=s3cr3t&page=2")!)
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("abc", forHTTPHeaderField: "X-Session")
        let values = sampleLines {
            let redaction = Redaction.default.redactingHeaders("X-Session").redactingQueryItems("ticket")
            redaction.redact(URL(string: "https://shop.test/cart?ticket=s3cr3t&page=2")!)
            // "https://shop.test/cart?ticket=<redacted>&page=2"
            redaction.describe(request)
            // GET https://shop.test/cart?ticket=<redacted>&page=2
            // Authorization: <redacted>
            // X-Session: <redacted>
        }
        #expect(values[0] as? String == "https://shop.test/cart?ticket=<redacted>&page=2")
        #expect((values[1] as? String)?.contains("X-Session: <redacted>") == true)
        #expect((values[1] as? String)?.contains("s3cr3t") == false)
    }

    @Test func moreHeadersAndQueryItems() {
        do {
            let redaction = Redaction.default.redactingHeaders("X-Session", "X-Tenant-Key")
            #expect(redaction.redact(["X-Tenant-Key": "k"])["X-Tenant-Key"] == "<redacted>")
        }
        let redaction = Redaction.default.redactingQueryItems("ticket", "otp")
        #expect(redaction.redact(URL(string: "https://shop.test/?otp=1")!) == "https://shop.test/?otp=<redacted>")
    }

    @Test func headersURLsAndErrors() {
        let redaction = Redaction.default
        let request = URLRequest(url: URL(string: "https://shop.test/a?token=s3cr3t")!)
        let error = URLError(.cannotConnectToHost)
        let values = sampleLines {
            Redaction.default.redact(["Authorization": "Bearer s3cr3t", "Accept": "*/*"])
            // Authorization: <redacted>, Accept: */*
            Redaction.default.redact(URL(string: "https://ann:pw@shop.test/a?token=s3cr3t&b=1")!)
            // "https://<redacted>:<redacted>@shop.test/a?token=<redacted>&b=1"
            redaction.describe(error, for: request)
            // "URLError -1004 (could not connect to the server) for https://shop.test/a?token=<redacted>"
        }
        #expect((values[0] as? HTTPHeaders)?["Authorization"] == "<redacted>")
        #expect(values[1] as? String == "https://<redacted>:<redacted>@shop.test/a?token=<redacted>&b=1")
        #expect((values[2] as? String)?.contains("https://shop.test/a?token=<redacted>") == true)
    }
}

@Suite("Doc comment samples: URLRequest+cURL.swift")
struct URLRequestCURLDocCommentSamplesTests {
    @Test func aCURLCommandWithTheSecretsHidden() {
        var request = URLRequest(url: URL(string: "https://shop.test/orders?token=s3cr3t")!)
        request.httpMethod = "POST"
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"note":"it's"}"#.utf8)
        print(request.curlCommand())
        // curl -X 'POST' -H 'Authorization: <redacted>' -H 'Content-Type: application/json'
        //   --data-binary '{"note":"it'\''s"}' 'https://shop.test/orders?token=<redacted>'
        #expect(!request.curlCommand().contains("s3cr3t"))
        #expect(request.curlCommand().contains(#"--data-binary '{"note":"it'\''s"}'"#))
    }
}

@Suite("Doc comment samples: Download.swift")
struct DownloadDocCommentSamplesTests {
    /// Stands in for Foundation's file manager in this suite: its temporary directory is a
    /// folder of its own, so that the sample's `report.pdf` meets no other test's file.
    struct FileManager {
        static let `default` = FileManager()
        let temporaryDirectory = Foundation.FileManager.default.temporaryDirectory
            .appendingPathComponent("doc-sample-\(UUID())", isDirectory: true)
    }
    @Test func aDownloadGoesToAFile() async throws {
        let server = try LoopbackServer { _ in .text("%PDF") }
        let reportURL = server.url(for: "/reports/7.pdf")
        let api = server.baseURL
        try Foundation.FileManager.default.createDirectory(at: FileManager.default.temporaryDirectory, withIntermediateDirectories: true)
        let auth = Authenticator(store: CredentialStore(.bearer("t0ken")), allowedOrigins: [Origin(url: reportURL)!])
        let transport = NetworkSession.shared.transport(with: .authenticated(by: auth), .retry(), .validatingStatus())
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("report.pdf")
        let response = try await download(Endpoint(baseURL: api, path: "/reports/7.pdf"), to: report, through: transport)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try Data(contentsOf: report) == Data("%PDF".utf8))
        try? Foundation.FileManager.default.removeItem(at: FileManager.default.temporaryDirectory)
    }
}

@Suite("Doc comment samples: NetworkSession.swift")
struct NetworkSessionDocCommentSamplesTests {
    @Test func aSessionAndItsStack() async throws {
        let server = try makeShopServer()
        let auth = Authenticator(store: CredentialStore(.bearer("t0ken")), allowedOrigins: [Origin(url: server.baseURL)!])
        let session = NetworkSession(configuration: .default, policy: .default)
        let transport = session.transport(with: .authenticated(by: auth), .retry(), .validatingStatus())
        let loadProduct: (Product.ID) -> Future<Product> = chain(
            chain(Endpoint.product, to: networking(from: transport)), to: Future.decoded)
        let failure = await loadProduct(7).result()
        #expect(failure.failure != nil)  // the seed's endpoint goes to shop.example, which a test does not reach
        let (data, _) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        #expect(data == productJSON)
    }

    @Test func aSessionOfItsOwnConfiguration() {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["User-Agent": "Shop/1.0"]
        let session = NetworkSession(configuration: configuration, policy: TransportPolicy(redirects: .never))
        #expect(session.configuration.httpAdditionalHeaders?["User-Agent"] as? String == "Shop/1.0")
    }

    @Test func aSessionOverAStub() async throws {
        let session = NetworkSession(sending: stubTransport(data: productJSON))
        let transport = session.transport(with: .retry(), .validatingStatus())
        let url = URL(string: "https://shop.test/products/7")!
        #expect(try await transport(URLRequest(url: url)).0 == productJSON)
        let (data, response) = try await session.transport(URLRequest(url: url))
        #expect(data == productJSON)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func theStackIsInItsOrder() async throws {
        let records = Collected<LogRecord>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0) }
        let session = NetworkSession(sending: stubTransport(status: 503))
        let transport = session.transport(with: .validatingStatus(), .retry(), .logged(to: log))
        // Runs as: logged → validatingStatus → retry → the session.
        _ = await Future { try await transport(URLRequest(url: URL(string: "https://shop.test/a")!)) }.result()
        #expect(records.values.count == 2)
    }
}

@Suite("Doc comment samples: Redirect.swift and RedirectPolicy.swift")
struct RedirectDocCommentSamplesTests {
    @Test func aPolicyThatStopsAtAnotherOrigin() throws {
        let policy = RedirectPolicy { redirect in
            redirect.isCrossOrigin ? .stop : .follow(redirect.proposedRequest)
        }
        let url = URL(string: "https://api.shop.example/a")!
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 302, httpVersion: nil, headerFields: ["Location": "https://elsewhere.example/"]))
        let redirect = try #require(Redirect(response: response, to: URLRequest(url: url)))
        guard case .stop = policy.decision(for: redirect) else {
            Issue.record("another origin stops")
            return
        }
    }

    @Test func atMostFiveHops() {
        let policy = TransportPolicy(redirects: .follow(maximumHops: 5))
        let session = NetworkSession(configuration: URLSession.shared.configuration, policy: policy)
        #expect(session.policy.maximumResponseSize == TransportPolicy.defaultMaximumResponseSize)
    }
}

@Suite("Doc comment samples: RequestContext.swift")
struct RequestContextDocCommentSamplesTests {
    @Test func aComposerReadsTheContext() async throws {
        let counter = Counter()
        let transport = NetworkSession(sending: stubTransport(data: productJSON)).transport(with: .counted(counter))
        _ = try await transport(URLRequest(url: URL(string: "https://shop.test/a")!))
        #expect(counter.value == 1)
    }

    @Test func aCallOutsideTheContext() async throws {
        @Sendable func refreshToken() async throws -> String { RequestContext.current.id == nil ? "fresh" : "inside" }
        let refreshed = try await RequestContext.withID(UUID()) {
            let token = try await RequestContext.$current.withValue(RequestContext()) {
                try await refreshToken()
            }
            return token
        }
        let token = refreshed
        #expect(token == "fresh")
    }

    @Test func aCallGivenAnIDIsCancelledByIt() async throws {
        let scope = CancellationScope()
        let networking = networking(
            from: NetworkSession(sending: recordingTransport(delay: .milliseconds(500))).transport(with: .cancellable(in: scope)))
        let id = UUID()
        let download = RequestContext.withID(id) { networking(.catalogue) }
        scope.cancel(id: id)  // download fails with CancellationError
        // Cancelled when it had started; had the cancel come first, the call ran to its end.
        let outcome = await download.result()
        #expect(outcome.failure is CancellationError || outcome.success != nil)
    }

    @Test func aCallWaitedForWithItsID() async throws {
        let transport = NetworkSession(sending: stubTransport(data: productJSON)).transport(with: .numbered())
        let request = URLRequest(url: URL(string: "https://shop.test/a")!)
        let id = UUID()
        let (data, _) = try await RequestContext.withID(id) { try await transport(request) }
        #expect(data == productJSON)
    }
}

@Suite("Doc comment samples: TransferProgress.swift")
struct TransferProgressDocCommentSamplesTests {
    @Test func aDownloadReportsItsProgress() async throws {
        let server = try LoopbackServer { _ in .text(String(repeating: "x", count: 100_000)) }
        let report = Endpoint(baseURL: server.baseURL, path: "/big")
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("doc-sample-\(UUID())")
        defer { try? FileManager.default.removeItem(at: destination) }
        let transport = NetworkSession.shared.transport
        let response = try await withTransferProgress {
            try await download(report, to: destination, through: transport)
        } onProgress: { progress in
            print(progress.bytesReceived, "of", progress.totalBytesToReceive ?? -1)
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}

@Suite("Doc comment samples: Transport.swift and URLSession+Transport.swift")
struct TransportDocCommentSamplesTests {
    @Test func aTransportIsAFunction() async throws {
        let server = try makeShopServer()
        let url = server.url(for: "/products/7")
        do {
            let transport: Transport = NetworkSession.shared.transport(with: .retry())
            let (data, response) = try await transport(URLRequest(url: url))
            #expect(data == productJSON)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
        let transport = URLSession.shared.transport
        let (data, response) = try await transport(URLRequest(url: url))
        #expect(data == productJSON)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func theSessionsNetworking() {
        let networking: Networking = URLSession.shared.request
        let product: Future<Product> = networking(.product(withID: 7)).decoded()
        product.cancel()
        #expect(Bool(true), "compiles: the seed's Networking from URLSession.shared")
    }
}

@Suite("Doc comment samples: TransportError.swift and TransportPolicy.swift")
struct TransportErrorDocCommentSamplesTests {
    @Test func aResponseTooLargeSaysTheLimit() async throws {
        let server = try LoopbackServer { _ in .text(String(repeating: "x", count: 10_000)) }
        let request = URLRequest(url: server.url(for: "/big"))
        let transport = NetworkSession(configuration: .ephemeral, policy: TransportPolicy(maximumResponseSize: 1_000)).transport
        let said = Collected<Int>()
        let offline = Counter()
        @Sendable func showOffline() { offline.increment() }
        try await withDocSampleTimeLimit {
            do {
                _ = try await transport(request)
            } catch TransportError.responseTooLarge(let limit, _) {
                print("more than \(limit) bytes; raise Endpoint.maximumResponseSize for this endpoint")
            } catch let error as TransportError where error.urlError?.code == .notConnectedToInternet {
                showOffline()
            }
        }
        #expect(offline.value == 0)
        do {
            _ = try await transport(request)
        } catch TransportError.responseTooLarge(let limit, _) {
            said.append(limit)
        }
        #expect(said.values == [1_000])
    }

    @Test func aPolicyOfYourOwn() {
        let secrets = Redaction.default.redactingHeaders("X-Shop-Session")
        let policy = TransportPolicy(
            redirects: .follow(maximumHops: 5),
            maximumResponseSize: 8 * 1_048_576,  // 8 MiB
            redaction: secrets
        )
        let session = NetworkSession(configuration: URLSession.shared.configuration, policy: policy)
        let transport = session.transport(with: .retry())
        _ = transport
        #expect(session.policy.maximumResponseSize == 8_388_608)
    }
}
