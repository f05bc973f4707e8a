import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of the `///` comments of Sources/FunctionalNetworkingSeeds, one suite per source
// file, each sample inside a test as the comment shows it, with what it needs declared around
// it, against LoopbackServers on 127.0.0.1 and stub transports.

/// Collects the values of a block written one expression a line, as a doc comment lists them.
@resultBuilder
enum Listed<Element> {
    static func buildBlock(_ elements: Element...) -> [Element] { elements }
}

func listed<Element>(@Listed<Element> _ body: () -> [Element]) -> [Element] { body() }

/// The shop the declarative samples speak of.
fileprivate let shop = Service(baseURL: URL(string: "https://api.example.com/v1")!)

/// The JSON object of an endpoint's body, for comparing.
fileprivate func jsonObject(_ data: Data?) throws -> NSDictionary {
    let data = try #require(data)
    return try #require(JSONSerialization.jsonObject(with: data) as? NSDictionary)
}

/// The query items of an endpoint's URL, in order, as `name=value` (or `name` for a flag).
fileprivate func queryLines(of endpoint: Endpoint) -> [String] {
    endpoint.queryItems.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
}

// MARK: - AuthComposer.swift, BearerTokenModifier.swift, ComposableNetworking.swift, NetworkClosureType.swift

@Suite("Doc-comment samples: AuthComposer.swift")
struct AuthComposerDocCommentSamplesTests {
    @Test func theComposerSendsTheCurrentToken() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let tokenStore = TokenStore()
        tokenStore.token = "t0k3n"
        let request = URLRequest(url: server.url(for: "/me"))

        let data = try await withTimeLimit {
            let auth = AuthComposer(
                bearerToken: { tokenStore.token },
                baseFunction: URLSession.shared.transport,
                authorizeRequest: AuthComposer.bearerAuthorization
            )
            let (data, _) = try await auth.composition(request)
            return data
        }

        #expect(String(decoding: data, as: UTF8.self) == "Bearer t0k3n")
    }
}

@Suite("Doc-comment samples: BearerTokenModifier.swift")
struct BearerTokenModifierDocCommentSamplesTests {
    @Test func theModifierComposedWithATransportAuthorizes() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let token = "t0k3n"
        let request = URLRequest(url: server.url(for: "/me"))

        let authorized: NetworkClosureType = compose(bearerTokenModifier(token), URLSession.shared.transport)

        let (data, _) = try await withTimeLimit { try await authorized(request) }
        #expect(String(decoding: data, as: UTF8.self) == "Bearer t0k3n")
    }
}

@Suite("Doc-comment samples: ComposableNetworking.swift")
struct ComposableNetworkingDocCommentSamplesTests {
    @Test func theNetworkingSendsTheTokenThroughTheAuthComposer() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let tokenStore = TokenStore()
        tokenStore.token = "t0k3n"
        let auth = AuthComposer(bearerToken: { tokenStore.token }, baseFunction: URLSession.shared.transport)
        let request = URLRequest(url: server.url(for: "/me"))

        let data = try await withTimeLimit {
            let networking = ComposableNetworking(
                bearerToken: { tokenStore.token },
                authComposer: auth,
                baseFunction: URLSession.shared.transport
            )
            let (data, _) = try await networking.composition(request)
            return data
        }

        #expect(String(decoding: data, as: UTF8.self) == "Bearer t0k3n")
    }
}

@Suite("Doc-comment samples: NetworkClosureType.swift")
struct NetworkClosureTypeDocCommentSamplesTests {
    @Test func aSessionsTransportIsANetworkClosure() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }

        let baseFunction: NetworkClosureType = URLSession.shared.transport

        let (data, _) = try await withTimeLimit { try await baseFunction(URLRequest(url: server.url(for: "/"))) }
        #expect(String(decoding: data, as: UTF8.self) == "-")
    }
}

// MARK: - Compose.swift

@Suite("Doc-comment samples: Compose.swift")
struct ComposeDocCommentSamplesTests {
    @Test func composeRunsTheFirstFunctionThenTheSecond() {
        let lengths: [Int] = listed {
            let describe = compose({ (id: Int) in "/products/\(id)" }, { path in path.count })
            describe(7)  // 11
        }

        #expect(lengths == [11])
    }

    @Test func aModifierComposedWithATransportIsAnAuthorizedTransport() async throws {
        let token = "t0k3n"
        let request = URLRequest(url: URL(string: "https://shop.example/me")!)

        let authorized = compose(bearerTokenModifier(token), echoAuthorization)
        let (data, response) = try await authorized(request)

        #expect(String(decoding: data, as: UTF8.self) == "Bearer t0k3n")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}

// MARK: - Endpoint+Declarative.swift

@Suite("Doc-comment samples: Endpoint+Declarative.swift")
struct EndpointDeclarativeDocCommentSamplesTests {
    @Test func headersAreWrittenOneALine() {
        let id = 7
        let token: String? = "t0k3n"

        let endpoint = Endpoint.get("products", id, from: shop)
            .headers {
                Header.accept("application/json")
                if let token { Header.authorization(bearer: token) }
            }

        #expect(endpoint.headers["Accept"] == "application/json")
        #expect(endpoint.headers["Authorization"] == "Bearer t0k3n")
        #expect(endpoint.url?.absoluteString == "https://api.example.com/v1/products/7")
    }

    @Test func queryItemsLeaveOutANil() {
        let text = "pencil"
        let category: String? = nil

        let endpoint = Endpoint.get("products", from: shop)
            .queryItems {
                Query("q", text)
                Query("page", 2)
                Query("category", category)  // left out when nil
            }

        #expect(queryLines(of: endpoint) == ["q=pencil", "page=2"])
    }

    @Test func aBodyIsWrittenOneKeyALine() throws {
        let id = 7

        let endpoint = try Endpoint.post("products", id, "reviews", from: shop)
            .body {
                Key("rating", 5)
                Key("tags", ["fast", "cheap"])
                Key("author") {
                    Key("name", "Ada")
                }
            }

        #expect(
            try jsonObject(endpoint.body)
                == ["rating": 5, "tags": ["fast", "cheap"], "author": ["name": "Ada"]] as NSDictionary
        )
        #expect(endpoint.method == .post)
    }
}

// MARK: - Endpoint+Service.swift

@Suite("Doc-comment samples: Endpoint+Service.swift")
struct EndpointServiceDocCommentSamplesTests {
    @Test func anEndpointOfAServiceIsBelowItsBaseURLWithItsHeaders() {
        let shop = Service(baseURL: URL(string: "https://api.example.com/v1")!).headers { Header.accept("application/json") }
        let id = 7

        let endpoint = Endpoint(.get, "products", id, "reviews", from: shop)
        // GET https://api.example.com/v1/products/7/reviews, with the shop's default headers

        #expect(endpoint.method == .get)
        #expect(endpoint.url?.absoluteString == "https://api.example.com/v1/products/7/reviews")
        #expect(endpoint.headers["Accept"] == "application/json")
    }

    @Test func pathComponentsCanBeAnArray() {
        let storage = Service(baseURL: URL(string: "https://files.example")!)
        let folders = ["photos", "2024"]

        let endpoint = Endpoint(.get, pathComponents: ["files"] + folders, from: storage)

        #expect(endpoint.url?.absoluteString == "https://files.example/files/photos/2024")
    }

    @Test func getTakesModifiers() {
        let id = 7

        let reviews = Endpoint.get("products", id, "reviews", from: shop)
            .queryItems { Query("page", 2) }

        #expect(reviews.url?.absoluteString == "https://api.example.com/v1/products/7/reviews?page=2")
    }

    @Test func postTakesABody() throws {
        let newProduct = Product(id: 8, name: "Pencil")

        let create = try Endpoint.post("products", from: shop).with(jsonBody: newProduct)

        #expect(create.method == .post)
        #expect(try JSONDecoder().decode(Product.self, from: #require(create.body)) == newProduct)
    }
}

// MARK: - HeadersBuilder.swift

@Suite("Doc-comment samples: HeadersBuilder.swift")
struct HeadersBuilderDocCommentSamplesTests {
    @Test func headersAreWrittenOneALine() {
        let endpoint = Endpoint.get("products", from: shop)
        let token = "t0k3n"
        let id = "req-1"

        let signed = endpoint.headers {
            Header.accept("application/json")
            Header.authorization(bearer: token)
            Header("X-Request-ID", id)
        }

        #expect(signed.headers["Accept"] == "application/json")
        #expect(signed.headers["Authorization"] == "Bearer t0k3n")
        #expect(signed.headers["X-Request-ID"] == "req-1")
    }

    @Test func aNamedHeaderSetsItsField() {
        struct Session { let accessToken: String }
        let session = Session(accessToken: "t0k3n")
        let endpoint = Endpoint.get("products", from: shop)

        let accepting = endpoint.headers {
            Header.accept("application/json")
        }
        let authorized = endpoint.headers {
            Header.authorization(bearer: session.accessToken)
        }

        #expect(accepting.headers["Accept"] == "application/json")
        #expect(authorized.headers["Authorization"] == "Bearer t0k3n")
    }

    @Test func headersTakeIfForAndIfElse() {
        let id = 7
        let token: String? = nil
        let isDebugging = false

        let endpoint = Endpoint.get("products", id, from: shop)
            .headers {
                Header.accept("application/json")
                if let token {
                    Header.authorization(bearer: token)
                }
                for language in ["fr-CH", "en;q=0.8"] {
                    Header.acceptLanguage(language)
                }
                if isDebugging {
                    Header("X-Debug", "1")
                } else {
                    Header("X-Client", "release")
                }
            }

        #expect(endpoint.headers["Authorization"] == nil)
        #expect(endpoint.headers.values(for: "Accept-Language") == ["fr-CH", "en;q=0.8"])
        #expect(endpoint.headers["X-Client"] == "release")
        #expect(endpoint.headers["X-Debug"] == nil)
    }

    @Test func httpHeadersAreBuiltTheSameWay() {
        let token: String? = "t0k3n"

        let headers = HTTPHeaders {
            Header.accept("application/json")
            if let token { Header.authorization(bearer: token) }
        }

        #expect(headers["Accept"] == "application/json")
        #expect(headers["Authorization"] == "Bearer t0k3n")
    }
}

// MARK: - JSONBody.swift

@Suite("Doc-comment samples: JSONBody.swift")
struct JSONBodyDocCommentSamplesTests {
    @Test func aBodyEncodesItsKeysInOrder() throws {
        let comment: String? = "…"

        let body = JSONBody {
            Key("rating", 5)
            Key("tags", ["fast", "cheap"])
            Key("author") {
                Key("name", "Ada")
                Key("since", 1843)
            }
            if let comment {
                Key("comment", comment)
            }
        }
        // {"rating":5,"tags":["fast","cheap"],"author":{"name":"Ada","since":1843},"comment":"…"}

        #expect(
            try jsonObject(JSONEncoder().encode(body))
                == jsonObject(Data(#"{"rating":5,"tags":["fast","cheap"],"author":{"name":"Ada","since":1843},"comment":"…"}"#.utf8))
        )
        #expect(body.keys.map(\.name) == ["rating", "tags", "author", "comment"])
    }

    @Test func keysTakeValuesOptionalsAndNestedObjects() throws {
        let note: String? = nil

        let body = JSONBody {
            Key("count", 3)
            Key("names", ["Ada", "Grace"])
            Key("note", note)  // a `String?`: `null` when nil
            Key("address") {
                Key("city", "Zürich")
            }
        }

        #expect(
            try jsonObject(JSONEncoder().encode(body))
                == jsonObject(Data(#"{"count":3,"names":["Ada","Grace"],"note":null,"address":{"city":"Zürich"}}"#.utf8))
        )
    }

    @Test func aBodyTakesForAndIfElse() throws {
        let endpoint = Endpoint.post("products", from: shop)
        let name = "Pencil"
        let extras: KeyValuePairs<String, String> = ["colour": "red", "size": "M"]
        let isDraft = true

        let posted = try endpoint.body {
            Key("name", name)
            for (field, value) in extras {
                Key(field, value)
            }
            if isDraft {
                Key("status", "draft")
            } else {
                Key("publishedAt", Date.now)
            }
        }

        #expect(
            try jsonObject(posted.body) == ["name": "Pencil", "colour": "red", "size": "M", "status": "draft"] as NSDictionary
        )
    }
}

// MARK: - QueryItemsBuilder.swift

@Suite("Doc-comment samples: QueryItemsBuilder.swift")
struct QueryItemsBuilderDocCommentSamplesTests {
    @Test func queryValuesArePercentEncodedAndNilIsLeftOut() {
        let endpoint = Endpoint.get("products", from: shop)
        let sort: String? = nil

        let searched = endpoint.queryItems {
            Query("q", "café & crème")  // q=caf%C3%A9%20%26%20cr%C3%A8me
            Query("page", 2)  // page=2
            Query("inStock", true)  // inStock=true
            Query("sort", sort)  // a `String?`: nothing at all when `sort` is nil
            Query("verbose")  // verbose, a flag with no `=`
        }

        #expect(searched.url?.query == "q=caf%C3%A9%20%26%20cr%C3%A8me&page=2&inStock=true&verbose")
    }

    @Test func aNilValueGivesNoItem() {
        let endpoint = Endpoint.get("products", from: shop)

        let endpoints = listed {
            let sort: String? = nil
            endpoint.queryItems { Query("sort", sort) }  // no `sort` item
        }

        #expect(endpoints.map(\.queryItems) == [[]])
    }

    @Test func aFlagHasNoValue() {
        let endpoint = Endpoint.get("products", from: shop)

        let flagged = endpoint.queryItems {
            Query("verbose")  // ?verbose
        }

        #expect(flagged.url?.query == "verbose")
    }

    @Test func queryItemsTakeForIfAndIfElse() {
        let text = "pencil"
        let page = 3
        let category: String? = "office"
        let tags = ["red", "cheap"]
        let onlyInStock = true
        let isDebugging = true

        let endpoint = Endpoint.get("products", from: shop)
            .queryItems {
                Query("q", text)
                Query("page", page)  // Int
                Query("category", category)  // String?: left out when nil
                for tag in tags {
                    Query("tag", tag)
                }
                if onlyInStock {
                    Query("inStock", true)
                }
                if isDebugging {
                    Query("trace")  // ?trace, a flag
                }
            }

        #expect(queryLines(of: endpoint) == ["q=pencil", "page=3", "category=office", "tag=red", "tag=cheap", "inStock=true", "trace"])
    }
}

// MARK: - Response.swift

@Suite("Doc-comment samples: Response.swift")
struct ResponseDocCommentSamplesTests {
    final class Statistics: @unchecked Sendable {
        private let lock = NSLock()
        private var statuses: [Int] = []
        func store(_ status: Int) { lock.withLock { statuses.append(status) } }
        var stored: [Int] { lock.withLock { statuses } }
    }

    @Test func aHookOnResponsesReadsTheStatus() throws {
        let statistics = Statistics()

        func afterEach<B>(_ response: Response<B>) -> Response<B> where B: Codable {
            statistics.store(response.status)
            return response
        }

        let response = afterEach(Response(value: Product(id: 7, name: "iPad Pro"), status: 201))
        #expect(response.value == Product(id: 7, name: "iPad Pro"))
        #expect(statistics.stored == [201])
    }
}

// MARK: - Service.swift

@Suite("Doc-comment samples: Service.swift")
struct ServiceDocCommentSamplesTests {
    enum ShopError: Error {
        case notTheShop
    }

    @Test func aServiceWithHooksCompilesAndItsRequestCanBeCancelled() async throws {
        // The sample names the real shop, so its request is cancelled before it can leave:
        // the test shows that it compiles and that its networking stops when asked.
        let task = Task {
            let shop = Service(baseURL: URL(string: "https://api.example.com/v1")!)
                .headers {
                    Header.accept("application/json")
                    Header.userAgent("Shop/2.1")
                }
                .adding(beforeEach: { endpoint in
                    endpoint.setting(header: "X-Request-ID", to: UUID().uuidString)
                })
                .adding(afterEach: { data, response in
                    guard (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Shop") != nil else {
                        throw ShopError.notTheShop
                    }
                    return (data, response)
                })

            let networking = shop.networking(using: URLSession.shared.transport)
            let product: Product = try await networking(.get("products", 7, from: shop)).decoded().value
            return product
        }
        task.cancel()

        let outcome = await Future { try await task.value }.result(within: .seconds(30))
        #expect(outcome.failure is CancellationError)
    }

    @Test func theHooksRunOnEveryRequest() async throws {
        let server = try LoopbackServer { request in
            request.path == "/v1/products/7"
                ? .json(#"{"id":7,"name":"iPad Pro"}"#, headers: [.init("X-Shop", "1")]) : .text("elsewhere")
        }
        defer { server.stop() }
        let shop = Service(baseURL: server.url(for: "/v1"))
            .headers { Header.userAgent("Shop/2.1") }
            .adding(beforeEach: { endpoint in
                endpoint.setting(header: "X-Request-ID", to: UUID().uuidString)
            })
            .adding(afterEach: { data, response in
                guard (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Shop") != nil else {
                    throw ShopError.notTheShop
                }
                return (data, response)
            })
        let networking = shop.networking(using: makeTestSession().transport)

        let product: Product = try await networking(.get("products", 7, from: shop)).decoded().value(within: .seconds(30))

        #expect(product == Product(id: 7, name: "iPad Pro"))
        let request = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(request.header("X-Request-ID") != nil)
        #expect(request.header("User-Agent") == "Shop/2.1")
        let elsewhere = await networking(.get("other", from: shop)).result(within: .seconds(30))
        #expect(elsewhere.failure is ShopError)
    }

    @Test func anAdminServiceAddsAPathHeadersAndAHook() async throws {
        let adminToken = "adm1n"
        let sent = Slot<URLRequest>()
        let transport = stubTransport { request in
            sent.value = request
            return (Data(), stubResponse(for: request))
        }

        let admin =
            shop
            .appending(pathComponents: "admin")  // https://api.example.com/v1/admin/…
            .headers { Header.authorization(bearer: adminToken) }
            .adding(beforeEach: { $0.setting(header: "X-Role", to: "admin") })

        _ = try await admin.networking(using: transport)(.get("users", from: admin)).value(within: .seconds(30))
        let request = try #require(sent.value)
        #expect(request.url?.absoluteString == "https://api.example.com/v1/admin/users")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer adm1n")
        #expect(request.value(forHTTPHeaderField: "X-Role") == "admin")
    }

    @Test func defaultHeadersCanBeADictionary() {
        let shop = Service(
            baseURL: URL(string: "https://api.example.com/v1")!,
            defaultHeaders: ["Accept": "application/json"])

        #expect(shop.defaultHeaders["Accept"] == "application/json")
    }

    @Test func aServiceCanNameAServer() {
        let local = Service(destination: .server(scheme: "http", host: "127.0.0.1", port: 8080))

        #expect(Endpoint.get("health", from: local).url?.absoluteString == "http://127.0.0.1:8080/health")
    }

    @Test func headersGiveASignedInCopy() {
        let token = "t0k3n"

        let signedIn = shop.headers { Header.authorization(bearer: token) }

        #expect(signedIn.defaultHeaders["Authorization"] == "Bearer t0k3n")
        #expect(shop.defaultHeaders["Authorization"] == nil)
    }

    @Test func appendingPathComponentsGivesAServiceBelowIt() {
        let storeID = 42

        let paths = listed {
            let store = shop.appending(pathComponents: "stores", storeID)
            Endpoint.get("stock", from: store).path  // "/stores/42/stock", below the base URL
        }

        #expect(paths == ["/stores/42/stock"])
    }

    @Test func aServicesNetworkingTakesAnyTransport() async throws {
        struct Review: Decodable, Sendable, Equatable { let rating: Int }
        let server = try LoopbackServer { _ in .json(#"[{"rating":5}]"#) }
        defer { server.stop() }
        let shop = Service(baseURL: server.url(for: "/v1"))
        let id = 7

        let reviews = try await withTimeLimit { () async throws -> [Review] in
            let networking = shop.networking(using: NetworkSession.shared.transport(with: .retry()))
            let reviews: [Review] = try await networking(.get("products", id, "reviews", from: shop))
                .decoded().value
            return reviews
        }

        #expect(reviews == [Review(rating: 5)])
        #expect(await server.takeRequest(timeout: .seconds(30))?.path == "/v1/products/7/reviews")
    }
}

/// One value shared across threads, or none.
fileprivate final class Slot<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value?

    var value: Value? {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}
