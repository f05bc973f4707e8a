import Foundation
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HTTPFieldSyntax+Request: the one check of what a request puts on the wire")
struct HTTPFieldSyntaxRequestTests {
    let url = URL(string: "https://api.example.com/v1/orders?id=7")!

    private func request(method: String? = nil, fields: [String: String] = [:], url: URL? = nil) -> URLRequest {
        var request = URLRequest(url: url ?? self.url)
        if let method {
            request.httpMethod = method
        }
        if !fields.isEmpty {
            request.allHTTPHeaderFields = fields
        }
        return request
    }

    @Test func acceptsAnOrdinaryRequestWithTabsPunctuationAndNonASCIIInValues() {
        let fields = ["Accept": "application/json", "X-Ok_1!#$%&'*+.^`|~": "a\tb \"c\"; q=0.5, é", "Authorization": "Bearer abc"]
        #expect(HTTPFieldSyntax.problem(in: request(method: "PATCH", fields: fields)) == nil)
        #expect(HTTPFieldSyntax.problem(in: request(method: "PURGE")) == nil)
        #expect(HTTPFieldSyntax.problem(in: URLRequest(url: url)) == nil)
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/", "HTTPS://API.EXAMPLE.COM/", "http://[::1]:80/x", "https://user:secret@example.com/",
    ])
    func acceptsHTTPAndHTTPSURLsWithAHostInAnyCase(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(HTTPFieldSyntax.problem(url: url) == nil)
    }

    @Test(arguments: ["ftp://example.com/x", "file:///tmp/x", "http:/no-host", "mailto:a@example.com", "ws://example.com/", "httpx://a/"])
    func rejectsURLsThatAreNotHTTPOrHTTPSWithAHost(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(HTTPFieldSyntax.problem(in: request(url: url)) == .url(url))
    }

    @Test(arguments: [
        "http://a", "http://a?x", "http://a#f", "http://a:80", "http://user@/x", "http://:80/", "http://user:pw@:80/",
        "http://?x", "http://#f", "http://[::1]/", "http://u:p@h:1/", "https://xn--bcher-kva.example/", "http://a%20b/",
        "HtTpS://Example.COM", "https://", "http:///x", "http://@/", "https://a.very.long.host.name.example.com/v1",
    ])
    func agreesWithURLHostAboutWhetherThereIsAHost(text: String) {
        guard let url = URL(string: text) else { return }  // nothing to send
        let scheme = url.scheme?.lowercased()
        let sendable = (scheme == "http" || scheme == "https") && !(url.host ?? "").isEmpty
        #expect((HTTPFieldSyntax.problem(url: url) == nil) == sendable, "\(text): host \(String(describing: url.host))")
    }

    @Test func rejectsARequestWithoutAURL() {
        var request = URLRequest(url: url)
        request.url = nil
        #expect(HTTPFieldSyntax.problem(in: request) == .url(nil))
    }

    @Test(arguments: ["", "GE T", "GET\r\nX-Injected: 1", "GET /smuggled HTTP/1.1\r\n\r\nGET", "GET\u{0}", "GÉT", "GET\t"])
    func rejectsMethodsThatAreNotTokens(method: String) {
        #expect(HTTPFieldSyntax.problem(in: request(method: method)) == .method(method))
    }

    @Test(arguments: ["", "Bad Name", "X-A:", "X-A\r\nX-B", "X-A\nX-B", "X\u{0}", "Ünï", "(x)", "a/b"])
    func rejectsHeaderNamesThatAreNotTokensSetWithSetValue(name: String) {
        var request = URLRequest(url: url)
        request.setValue("v", forHTTPHeaderField: name)
        // URLRequest may change the name's case ("a/b" is kept as "A/B").
        guard case .headerName(let named) = HTTPFieldSyntax.problem(in: request) else {
            Issue.record("\(name.debugDescription) passed")
            return
        }
        #expect(named.lowercased() == name.lowercased())
    }

    @Test(arguments: ["a\r\nX-Injected: 1", "a\rb", "a\nb", "a\u{0}b", "\u{7F}", "a\u{1B}b", "a\r\n\r\nGET /smuggled HTTP/1.1"])
    func rejectsHeaderValuesWithControlCharactersSetThroughAllHTTPHeaderFields(value: String) {
        let problem = HTTPFieldSyntax.problem(in: request(fields: ["Accept": "ok", "X-Evil": value]))
        #expect(problem == .headerValue(name: "X-Evil"))
    }

    @Test func namesTheBadHeaderWhoseNameSortsFirstWhateverTheDictionaryOrder() {
        let fields = ["X-C": "\r", "X-A": "\n", "X-B": "\u{0}", "Accept": "ok", "Z\r\n": "v"]
        for _ in 0..<20 {
            #expect(HTTPFieldSyntax.problem(in: request(fields: fields)) == .headerValue(name: "X-A"))
        }
    }

    @Test func checksTheURLThenTheMethodThenTheHeaders() throws {
        let ftp = try #require(URL(string: "ftp://example.com/"))
        #expect(HTTPFieldSyntax.problem(in: request(method: "B AD", fields: ["X": "\r\n"], url: ftp)) == .url(ftp))
        #expect(HTTPFieldSyntax.problem(in: request(method: "B AD", fields: ["X": "\r\n"])) == .method("B AD"))
    }

    @Test(arguments: ["Bad Name", "X-A\r\nX-B", "X\u{0}", "X-Ok", "Accept"], ["ok", "a\r\nb", "a\u{0}b", "\tfine\t"])
    func endpointsAndTheTransportJudgeEveryFieldAlike(name: String, value: String) throws {
        let endpoint = Endpoint(baseURL: url, path: "/x", headers: HTTPHeaders([(name, value)]))
        var request = URLRequest(url: url)
        request.allHTTPHeaderFields = [name: value]
        let endpointRefuses = (try? endpoint.urlRequest()) == nil
        #expect(endpointRefuses == (HTTPFieldSyntax.problem(in: request) != nil))
    }

    @Test(arguments: [
        ("", "it is empty"), ("X-A\r\nX-B", "it contains CR"), ("X\nY", "it contains LF"), ("X\u{0}", "it contains NUL"),
        ("Bad Name", "it contains a space"), ("X-A:", #"it contains ":""#), ("\u{1}", "it contains the control character 0x01"),
        ("É", "it contains a non-ASCII character"), ("\u{7F}", "it contains DEL"), ("a\tb", "it contains a tab"),
    ])
    func saysInWordsWhatKeepsTextFromBeingAToken(text: String, fault: String) {
        #expect(HTTPFieldSyntax.tokenFault(in: text) == fault)
    }

    @Test func findsNoFaultInAToken() {
        #expect(HTTPFieldSyntax.tokenFault(in: "X-Request-ID") == nil)
    }
}
