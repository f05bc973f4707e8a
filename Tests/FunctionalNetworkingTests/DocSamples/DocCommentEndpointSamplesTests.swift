import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples in the doc comments of Sources/FunctionalNetworking/Endpoint, HTTP and Bodies,
// one suite per source file. `Endpoint.product(withID:)` is the seed's, in SeedTests.swift.

extension Endpoint {
    static let shop = URL(string: "https://api.example.com/v1")!

    static func reviews(ofProductWithID id: Product.ID) -> Endpoint {
        Endpoint(baseURL: shop).appending(pathComponents: ["products", String(id), "reviews"])
    }

    static func search(for text: String) -> Endpoint {
        Endpoint(baseURL: shop, path: "/search", queryItems: [URLQueryItem(name: "q", value: text)])
    }
}

private let shop = URL(string: "https://api.example.com/v1")!

@Suite("Doc comment samples: Endpoint.swift")
struct EndpointDocCommentSamplesTests {
    @Test func staticFactoriesMakeTheAPIsEndpoints() {
        let values = sampleLines {
            Endpoint.search(for: "café & crème").url
            // https://api.example.com/v1/search?q=caf%C3%A9%20%26%20cr%C3%A8me
        }
        #expect((values[0] as? URL)?.absoluteString == "https://api.example.com/v1/search?q=caf%C3%A9%20%26%20cr%C3%A8me")
        #expect(Endpoint.reviews(ofProductWithID: 7).url?.absoluteString == "https://api.example.com/v1/products/7/reviews")
    }

    @Test func aPathIsSplitIntoComponents() {
        var endpoint = Endpoint(baseURL: shop)
        endpoint.path = "/products/7"  // pathComponents == ["products", "7"]
        endpoint.path = "products/7/"  // ["products", "7", ""]: a trailing slash
        #expect(endpoint.pathComponents == ["products", "7", ""])
    }

    @Test func aPathGoesAfterTheBaseURLsPath() {
        let values = sampleLines {
            let shop = URL(string: "https://api.example.com/v1")!
            Endpoint(baseURL: shop, path: "/products/7").url  // https://api.example.com/v1/products/7
        }
        #expect((values[0] as? URL)?.absoluteString == "https://api.example.com/v1/products/7")
    }

    @Test func anEndpointFromItsParts() {
        let values = sampleLines {
            Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: 8080), path: "/health").url
            // http://127.0.0.1:8080/health
        }
        #expect((values[0] as? URL)?.absoluteString == "http://127.0.0.1:8080/health")
    }
}

@Suite("Doc comment samples: Endpoint+Error.swift")
struct EndpointErrorDocCommentSamplesTests {
    /// Rejects `promise` when `endpoint` makes no URL, as the sample does.
    static func load(_ endpoint: Endpoint, into promise: Promise<URL>) {
        guard let url = endpoint.url else {
            promise.reject(with: Endpoint.Error.invalidURL(endpoint.urlProblem))
            return
        }
        promise.resolve(with: url)
    }

    @Test func anEndpointWithoutAURLRejectsThePromise() async {
        let promise = Promise<URL>()
        Self.load(Endpoint(destination: .server(scheme: "https", host: "shop.example", port: 70000), path: "/items"), into: promise)
        let error = await promise.result().failure as? Endpoint.Error
        #expect(error == .invalidURL(nil))
        #expect("\(error.map(String.init(describing:)) ?? "")".contains("the port 70000 is outside 0...65535"))
    }
}

@Suite("Doc comment samples: Endpoint+Modifiers.swift")
struct EndpointModifiersDocCommentSamplesTests {
    struct NewProduct: Encodable, Sendable {
        let name: String
        let price: Int
    }

    @Test func aMethodOfItsOwn() {
        let id = 7
        let delete = Endpoint.product(withID: id).with(method: .delete)
        #expect(delete.method == .delete)
    }

    @Test func aBodyAndItsContentType() throws {
        let rename = Endpoint(method: .patch, baseURL: shop, path: "/products/7")
            .with(body: Data(#"{"name":"Lamp"}"#.utf8))
            .setting(header: "Content-Type", to: "application/json")
        let request = try rename.urlRequest()
        #expect(request.httpBody == Data(#"{"name":"Lamp"}"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func aFormBody() throws {
        let auth = URL(string: "https://auth.example.com")!
        let secret = "s3cret"
        let signIn = Endpoint(method: .post, baseURL: auth, path: "/token")
            .with(body: ["grant_type": "password", "username": "ada", "password": secret] as FormBody)
        let request = try signIn.urlRequest()
        #expect(request.httpBody == Data("grant_type=password&username=ada&password=s3cret".utf8))
    }

    @Test func aMultipartBody() throws {
        let photoURL = FileManager.default.temporaryDirectory.appendingPathComponent("doc-sample-\(UUID()).jpg")
        var form = MultipartFormData()
        form.append("Holiday", named: "title")
        form.appendFile(at: photoURL, named: "photo", contentType: "image/jpeg")
        let upload = Endpoint(method: .post, baseURL: shop, path: "/photos").with(body: form)
        #expect(upload.multipartBody?.boundary == form.boundary)
    }

    @Test func aBodyFromAFile() {
        let storage = URL(string: "https://storage.example.com")!
        let archiveURL = URL(fileURLWithPath: "/tmp/today.tar")
        let upload = Endpoint(method: .put, baseURL: storage, path: "/backups/today.tar")
            .with(bodyFromFileAt: archiveURL, contentType: "application/x-tar")
        #expect(upload.bodyFile == archiveURL)
        #expect(upload.headers["Content-Type"] == "application/x-tar")
    }

    @Test func aLargerResponseForOneEndpoint() {
        let export = Endpoint(baseURL: shop, path: "/reports/2026.csv")
            .with(maximumResponseSize: 512 * 1_048_576)  // this one may reach 512 MiB
        #expect(export.maximumResponseSize == 536_870_912)
    }

    @Test func appendingAPath() {
        let values = sampleLines {
            Endpoint(baseURL: shop, path: "/products/").appending(path: "7/reviews").path
            // "/products/7/reviews"
        }
        #expect(values[0] as? String == "/products/7/reviews")
    }

    @Test func addingAQueryItem() {
        let values = sampleLines {
            Endpoint.search(for: "ipad").adding(queryItem: "page", value: "2")
        }
        #expect((values[0] as? Endpoint)?.url?.absoluteString == "https://api.example.com/v1/search?q=ipad&page=2")
    }

    @Test func settingAHeader() {
        let endpoint = Endpoint(baseURL: shop)
        let token = "t0ken"
        let values = sampleLines {
            endpoint.setting(header: "Authorization", to: "Bearer \(token)")
        }
        #expect((values[0] as? Endpoint)?.headers["authorization"] == "Bearer t0ken")
    }

    @Test func aJSONBody() throws {
        let create = try Endpoint(method: .post, baseURL: shop, path: "/products")
            .with(jsonBody: NewProduct(name: "iPad Pro", price: 999))
        let request = try create.urlRequest()
        let body = try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: Any]
        #expect(body?["name"] as? String == "iPad Pro")
        #expect(request.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
    }
}

@Suite("Doc comment samples: Endpoint+URL.swift")
struct EndpointURLDocCommentSamplesTests {
    @Test func aPlusInAQueryValueIsEncoded() {
        let values = sampleLines {
            Endpoint(baseURL: shop, path: "/search", queryItems: [URLQueryItem(name: "q", value: "a+b")]).url
            // https://api.example.com/v1/search?q=a%2Bb
        }
        #expect((values[0] as? URL)?.absoluteString == "https://api.example.com/v1/search?q=a%2Bb")
    }
}

@Suite("Doc comment samples: Endpoint+URLProblem.swift")
struct EndpointURLProblemDocCommentSamplesTests {
    @Test func theProblemNamesThePart() {
        let endpoint = Endpoint(destination: .server(scheme: "https", host: "shop.example", port: 70000), path: "/items")
        let logged = Collected<String>()
        func log(_ line: String) { logged.append(line) }
        if let problem = endpoint.urlProblem { log("\(problem.part): \(problem)") }
        #expect(logged.values.first?.hasPrefix("port: ") == true)
        #expect(endpoint.urlProblem?.description == "the port 70000 is outside 0...65535, in https://shop.example:70000/items")
    }
}

@Suite("Doc comment samples: Endpoint+URLRequest.swift")
struct EndpointURLRequestDocCommentSamplesTests {
    @Test func anEndpointMakesItsRequest() throws {
        let id = 7
        let request = try Endpoint.product(withID: id)
            .setting(header: "Accept", to: "application/json")
            .urlRequest()
        #expect(request.url?.absoluteString == "https://shop.example/products/7")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }
}

@Suite("Doc comment samples: HTTPHeaders.swift")
struct HTTPHeadersDocCommentSamplesTests {
    @Test func namesAreCaseInsensitiveAndMayRepeat() {
        let token = "t0ken"
        let values = sampleLines {
            var headers: HTTPHeaders = ["Accept": "application/json"]
            headers["Authorization"] = "Bearer \(token)"
            headers.add(name: "Accept-Language", value: "en")
            headers.add(name: "Accept-Language", value: "fr;q=0.5")
            headers["accept"]  // "application/json"
            headers.values(for: "ACCEPT-LANGUAGE")  // ["en", "fr;q=0.5"]
        }
        #expect(values[0] as? String == "application/json")
        #expect(values[1] as? [String] == ["en", "fr;q=0.5"])
    }

    @Test func repeatedFieldsKeepTheirOrder() {
        let headers = HTTPHeaders([("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
        #expect(headers.values(for: "set-cookie") == ["a=1", "b=2"])
    }

    @Test func settingReplacesAndNilRemoves() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Debug": "1"]
        headers["content-type"] = "application/json"  // replaces "Content-Type"
        headers["X-Debug"] = nil  // removes it
        #expect(headers.values(for: "Content-Type") == ["application/json"])
        #expect(!headers.contains("X-Debug"))
    }

    @Test func mergingReplacesByName() {
        let values = sampleLines {
            let defaults: HTTPHeaders = ["Accept": "application/json", "User-Agent": "Shop/1"]
            defaults.merging(["accept": "text/html"])  // accept: text/html, User-Agent: Shop/1
        }
        let merged = values[0] as? HTTPHeaders
        #expect(merged?.values(for: "Accept") == ["text/html"])
        #expect(merged?["User-Agent"] == "Shop/1")
    }
}

@Suite("Doc comment samples: HTTPMethod.swift")
struct HTTPMethodDocCommentSamplesTests {
    @Test func aMethodFromALiteral() {
        let endpoint = Endpoint(method: .post, baseURL: shop, path: "/login")
        let custom: HTTPMethod = "PURGE"
        #expect(endpoint.method == .post)
        #expect(custom.rawValue == "PURGE")
    }
}

@Suite("Doc comment samples: HTTPStatusError.swift")
struct HTTPStatusErrorDocCommentSamplesTests {
    struct Problem: Decodable { let message: String }

    @Test func aStatusErrorIsCaughtByStatusAndItsBodyDecoded() async throws {
        let server = try makeShopServer()
        let shown = Collected<String>()
        func show(_ text: String) { shown.append(text) }
        func showNotFound() { shown.append("not found") }
        let send = networking(from: NetworkSession.shared.transport(with: .validatingStatus()))
        for path in ["/products/99", "/products/7"] {
            // The seed's `.product(withID:)` goes to shop.example; this one to the server.
            let networking: Networking = { endpoint in
                send(Endpoint(baseURL: server.baseURL, path: path).with(method: endpoint.method))
            }
            do {
                let product = try await networking(.product(withID: 7)).decoded(as: Product.self).value
                show(product.name)
            } catch let error as HTTPStatusError where error.status == 404 {
                showNotFound()
            } catch let error as HTTPStatusError {
                let problem = try? error.decodedBody(as: Problem.self)
                show(problem?.message ?? error.description)
            }
        }
        #expect(shown.values == ["not found", "iPad Pro"])
    }

    @Test func theBodyDecodesAsTheServersErrorModel() throws {
        let error = HTTPStatusError(status: 422, body: Data(#"{"message":"The name is taken"}"#.utf8))
        struct Problem: Decodable { let message: String }
        let problem = try error.decodedBody(as: Problem.self)
        #expect(problem.message == "The name is taken")
    }
}

@Suite("Doc comment samples: HeaderSelection.swift")
struct HeaderSelectionDocCommentSamplesTests {
    @Test func aSelectionSaysWhichHeadersMatter() {
        let values = sampleLines {
            .deduplicated(matching: .all(except: ["X-Request-ID"]))  // a per-call ID does not matter
            ResponseCache(varyingOn: .only(["Accept", "Authorization"]))  // only these matter
        }
        let more = sampleLines {
            .deduplicated(matching: .all(except: ["X-Request-ID", "traceparent"]))
        }
        #expect((values[0] as? Composer)?.place == .deduplication)
        #expect((values[1] as? ResponseCache)?.headers == .only(["Accept", "Authorization"]))
        #expect((more[0] as? Composer)?.place == .deduplication)
    }

    @Test func onlyTheseHeaders() {
        let values = sampleLines {
            ResponseCache(varyingOn: .only(["Accept", "Authorization"]))
        }
        #expect((values[0] as? ResponseCache)?.headers == .only(["Accept", "Authorization"]))
    }
}

@Suite("Doc comment samples: FormBody.swift")
struct FormBodyDocCommentSamplesTests {
    @Test func aFormIsURLEncoded() throws {
        let auth = URL(string: "https://auth.example.com")!
        let form: FormBody = ["grant_type": "password", "username": "ada", "password": "s3cret & more"]
        let signIn = Endpoint(method: .post, baseURL: auth, path: "/token").with(body: form)
        // grant_type=password&username=ada&password=s3cret+%26+more
        #expect(try signIn.urlRequest().httpBody == Data("grant_type=password&username=ada&password=s3cret+%26+more".utf8))
    }
}

@Suite("Doc comment samples: MultipartFormData.swift")
struct MultipartFormDataDocCommentSamplesTests {
    @Test func aFormWithAFileIsUploaded() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let shop = server.baseURL
        let photoURL = FileManager.default.temporaryDirectory.appendingPathComponent("doc-sample-\(UUID()).jpg")
        try Data([0xFF, 0xD8, 0xFF]).write(to: photoURL)
        defer { try? FileManager.default.removeItem(at: photoURL) }
        let send = networking(from: NetworkSession.shared.transport)
        var form = MultipartFormData()
        form.append("Ada", named: "name")
        form.appendFile(at: photoURL, named: "photo", contentType: "image/jpeg")
        let upload = Endpoint(method: .post, baseURL: shop, path: "/photos").with(body: form)
        let reply = try await send(upload).value
        #expect(reply == Data("{}".utf8))
        let parts = await server.takeRequest()?.formParts
        #expect(parts?.map(\.name) == ["name", "photo"])
        #expect(parts?.last?.body == Data([0xFF, 0xD8, 0xFF]))
    }
}
