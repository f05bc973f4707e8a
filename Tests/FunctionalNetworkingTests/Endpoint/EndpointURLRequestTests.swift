import Foundation
import FunctionalNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Endpoint URLRequest")
struct EndpointURLRequestTests {
    let shop = URL(string: "https://api.example.com/v1")!

    @Test func setsURLMethodHeadersBodyAndTimeout() throws {
        let endpoint = Endpoint(
            method: .post, baseURL: shop, path: "/orders", queryItems: [URLQueryItem(name: "dry-run", value: "1")],
            headers: ["Content-Type": "application/json", "X-Trace": "abc"], timeout: 12.5
        ).with(body: Data(#"{"id":7}"#.utf8))
        let request = try endpoint.urlRequest()
        #expect(request.url == endpoint.url)
        #expect(request.url?.absoluteString == "https://api.example.com/v1/orders?dry-run=1")
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "content-type") == "application/json")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "abc")
        #expect(request.httpBody == Data(#"{"id":7}"#.utf8))
        #expect(request.timeoutInterval == 12.5)
    }

    @Test func leavesTheDefaultTimeoutAndNoBodyWhenUnset() throws {
        let request = try Endpoint(baseURL: shop, path: "/x").urlRequest()
        #expect(request.timeoutInterval == URLRequest(url: shop).timeoutInterval)
        #expect(request.httpBody == nil)
        #expect(request.httpMethod == "GET")
    }

    @Test func sendsCustomMethods() throws {
        #expect(try Endpoint(method: "purge", baseURL: shop, path: "/x").urlRequest().httpMethod == "PURGE")
    }

    @Test func joinsRepeatedHeaderValuesInOrder() throws {
        let endpoint = Endpoint(baseURL: shop, path: "/x", headers: HTTPHeaders([("Accept", "a"), ("X", "1"), ("accept", "b")]))
        let request = try endpoint.urlRequest()
        #expect(request.value(forHTTPHeaderField: "Accept") == "a, b")
        #expect(request.value(forHTTPHeaderField: "X") == "1")
    }

    @Test(arguments: ["a\r\nX-Injected: 1", "a\rb", "a\nb", "a\u{0}b", "\u{7F}", "a\u{1B}b"])
    func rejectsHeaderValuesWithControlCharacters(value: String) {
        let endpoint = Endpoint(baseURL: shop, path: "/x", headers: ["Accept": "ok", "X-Evil": value])
        #expect(throws: Endpoint.Error.invalidHeader(name: "X-Evil")) { try endpoint.urlRequest() }
    }

    @Test(arguments: ["", "Bad Name", "X-A:", "X\r\nInjected", "X\u{0}", "Ünï", "(x)", "a/b"])
    func rejectsHeaderNamesThatAreNotTokens(name: String) {
        let endpoint = Endpoint(baseURL: shop, path: "/x", headers: HTTPHeaders([(name, "v")]))
        #expect(throws: Endpoint.Error.invalidHeader(name: name)) { try endpoint.urlRequest() }
    }

    @Test func acceptsTabsPunctuationAndNonASCIIInHeaderValues() throws {
        let value = "a\tb \"c\"; q=0.5, é"
        let endpoint = Endpoint(baseURL: shop, path: "/x", headers: ["X-Ok_1!#$%&'*+.^`|~": value])
        #expect(try endpoint.urlRequest().value(forHTTPHeaderField: "X-Ok_1!#$%&'*+.^`|~") == value)
    }

    @Test(arguments: ["", "GE T", "GET\r\nX: 1", "GET\u{0}", "GÉT"])
    func rejectsMethodsThatAreNotTokens(method: String) {
        let endpoint = Endpoint(method: HTTPMethod(rawValue: method), baseURL: shop, path: "/x")
        #expect(throws: Endpoint.Error.invalidMethod(HTTPMethod(rawValue: method))) { try endpoint.urlRequest() }
    }

    @Test(arguments: [0, -1, TimeInterval.infinity, -TimeInterval.infinity, TimeInterval.nan])
    func rejectsTimeoutsThatAreNotPositiveAndFinite(timeout: TimeInterval) {
        let endpoint = Endpoint(baseURL: shop, path: "/x", timeout: timeout)
        #expect(throws: Endpoint.Error.invalidTimeout) { try endpoint.urlRequest() }
    }

    @Test func reportsAnInvalidURLBeforeAnythingElse() {
        let endpoint = Endpoint(
            method: "BAD METHOD", destination: .server(scheme: "https", host: "", port: nil), path: "/x", headers: ["X": "\r\n"],
            timeout: -1)
        #expect(throws: Endpoint.Error.invalidURL) { try endpoint.urlRequest() }
    }

    @Test func errorDescriptionsReadAsSentences() {
        let errors: [Endpoint.Error] = [.invalidURL, .invalidHeader(name: "X-Evil\r\n"), .invalidMethod("GE T"), .invalidTimeout]
        for error in errors {
            let text = error.description
            #expect(text.first?.isUppercase == true, "\(text)")
            #expect(text.hasSuffix("."), "\(text)")
            #expect(text.split(separator: " ").count >= 8, "\(text)")
            #expect(!text.contains("\r") && !text.contains("\n"), "\(text)")
        }
        #expect(Endpoint.Error.invalidURL.description.contains("valid absolute URL"))
        #expect(Endpoint.Error.invalidHeader(name: "X-Evil\r\n").description.contains(#""X-Evil\r\n""#))
        #expect(Endpoint.Error.invalidMethod("GE T").description.contains(#""GE T""#))
        #expect(Endpoint.Error.invalidTimeout.description.contains("timeout"))
    }

    @Test func localizedDescriptionSaysWhatDescriptionSays() {
        let errors: [Endpoint.Error] = [.invalidURL, .invalidHeader(name: "X-Evil\r\n"), .invalidMethod("GE T"), .invalidTimeout]
        for error in errors {
            #expect(error.localizedDescription == error.description)
            #expect((error as any Error).localizedDescription == error.description)
        }
    }
}
