import Foundation
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport checks every request it is handed, and every response's framing, end to end
/// against a raw socket that counts what it receives.
@Suite("WireCheck")
struct WireCheckTests {
    static let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

    /// A way to put a line into a request that URLSession on Linux sends as written.
    enum Injection: String, CaseIterable, CustomTestStringConvertible {
        case crlfInTheMethod, nulInTheMethod, crlfInAHeaderNameSetWithSetValue
        case crlfInAValueSetThroughAllHTTPHeaderFields, nulInAValueSetThroughAllHTTPHeaderFields

        var testDescription: String { rawValue }

        func apply(to request: inout URLRequest) {
            switch self {
            case .crlfInTheMethod:
                request.httpMethod = "GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET"
            case .nulInTheMethod:
                request.httpMethod = "GET\u{0}"
            case .crlfInAHeaderNameSetWithSetValue:
                request.setValue("1", forHTTPHeaderField: "X-A: 1\r\nX-Smuggled")
            case .crlfInAValueSetThroughAllHTTPHeaderFields:
                request.allHTTPHeaderFields = ["X-Note": "a\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: 127.0.0.1"]
            case .nulInAValueSetThroughAllHTTPHeaderFields:
                request.allHTTPHeaderFields = ["X-Note": "a\u{0}b"]
            }
        }

        var error: TransportError {
            switch self {
            case .crlfInTheMethod: .invalidMethod("GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET")
            case .nulInTheMethod: .invalidMethod("GET\u{0}")
            case .crlfInAHeaderNameSetWithSetValue: .invalidHeaderName("X-A: 1\r\nX-Smuggled")
            case .crlfInAValueSetThroughAllHTTPHeaderFields, .nulInAValueSetThroughAllHTTPHeaderFields:
                .invalidHeaderValue(name: "X-Note")
            }
        }
    }

    /// The transport a request is handed to.
    enum Route: String, CaseIterable, CustomTestStringConvertible {
        case sharedSessionTransport, composedTransport

        var testDescription: String { rawValue }

        var transport: Transport {
            switch self {
            case .sharedSessionTransport: URLSession.shared.transport
            case .composedTransport: makeTestNetworkSession(timeout: 10).transport(with: .validatingStatus(), .retry(), .numbered())
            }
        }
    }

    private static func request(_ listener: RawListener, _ path: String) -> URLRequest {
        URLRequest(url: listener.baseURL.appendingPathComponent(path), timeoutInterval: 10)
    }

    // MARK: - Requests

    @Test(arguments: Injection.allCases, Route.allCases)
    func anInjectedLineFailsInWordsAndNothingReachesTheServer(injection: Injection, route: Route) async throws {
        let listener = try RawListener(always: Self.ok)
        defer { listener.stop() }
        let transport = route.transport
        var request = Self.request(listener, "first")
        injection.apply(to: &request)

        await #expect(throws: injection.error) { try await transport(request) }

        // The same transport still sends, and the server saw that request alone: the bad one
        // never left (no connection, no byte, no smuggled request).
        let (data, _) = try await transport(Self.request(listener, "control"))
        #expect(data == Data("ok".utf8))
        #expect(listener.connections == 1)
        #expect(listener.requestHeads == 1)
        #expect(listener.receivedText.hasPrefix("GET /control HTTP/1.1\r\n"), "\(listener.receivedText.debugDescription)")
        #expect(!listener.receivedText.contains("smuggled") && !listener.receivedText.contains("first"))
    }

    @Test func aValueTheCallerNeverSeesIsNotShownInTheError() async throws {
        let listener = try RawListener(always: Self.ok)
        defer { listener.stop() }
        var request = Self.request(listener, "x")
        request.allHTTPHeaderFields = ["Authorization": "Bearer s3cr3t\r\nX-Smuggled: 1"]
        let error = try await #require(throws: TransportError.self) { try await URLSession.shared.transport(request) }
        #expect(error == .invalidHeaderValue(name: "Authorization"))
        #expect(!error.description.contains("s3cr3t") && !error.localizedDescription.contains("s3cr3t"))
        #expect(listener.connections == 0)
    }

    @Test func aComposerThatInjectsALineIsStoppedAtTheTransport() async throws {
        let listener = try RawListener(always: Self.ok)
        defer { listener.stop() }
        let injecting = Composer.modifyingRequest { request in
            var request = request
            request.allHTTPHeaderFields = ["X-Trace": "1\r\nX-Smuggled: 1"]
            return request
        }
        let transport = makeTestNetworkSession(timeout: 10).transport(with: injecting, .retry())
        await #expect(throws: TransportError.invalidHeaderValue(name: "X-Trace")) {
            try await transport(Self.request(listener, "x"))
        }
        #expect(listener.connections == 0 && listener.received.isEmpty)
    }

    @Test func aRedirectPolicyThatReturnsAnInjectedRequestIsStoppedBeforeTheNextHop() async throws {
        let listener = try RawListener { index in
            Data((index == 0 ? "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n" : Self.ok).utf8)
        }
        defer { listener.stop() }
        let injecting = RedirectPolicy { redirect in
            var next = redirect.proposedRequest
            next.setValue("1", forHTTPHeaderField: "X-Hop\r\nX-Smuggled")
            return .follow(next)
        }
        let transport = makeTestNetworkSession(timeout: 10, policy: TransportPolicy(redirects: injecting)).transport
        await #expect(throws: TransportError.invalidHeaderName("X-Hop\r\nX-Smuggled")) {
            try await transport(Self.request(listener, "first"))
        }
        #expect(listener.requestHeads == 1)
        #expect(!listener.receivedText.contains("/next") && !listener.receivedText.contains("Smuggled"))
    }

    @Test func aSessionConfigurationHeaderThatInjectsALineFailsEveryRequestAndNothingIsSent() async throws {
        let listener = try RawListener(always: Self.ok)
        defer { listener.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-Client": "app\r\nX-Smuggled: 1", "Accept-Language": "en"]
        let transport = NetworkSession(configuration: configuration).transport(with: .retry())
        for _ in 0..<2 {
            await #expect(throws: TransportError.invalidHeaderValue(name: "X-Client")) {
                try await transport(Self.request(listener, "x"))
            }
        }
        #expect(listener.connections == 0)
    }

    @Test func sessionConfigurationHeadersAreJudgedLikeARequestsAndOnlyStringsAreRead() {
        #expect(WireCheck.problem(inAdditionalHeaders: nil) == nil)
        #expect(WireCheck.problem(inAdditionalHeaders: ["Accept": "a\tb", "X-Count": 5, 7: "x"]) == nil)
        #expect(WireCheck.problem(inAdditionalHeaders: ["X-A\r\nX-B": "1", "X-Z": "\n"]) == .invalidHeaderName("X-A\r\nX-B"))
        #expect(WireCheck.problem(inAdditionalHeaders: ["X-Z": "a\u{0}"]) == .invalidHeaderValue(name: "X-Z"))
    }

    @Test(arguments: ["ftp", "file", "ws"])
    func aURLThatIsNotHTTPFailsInWordsAndNothingIsSent(scheme: String) async throws {
        let listener = try RawListener(always: Self.ok)
        defer { listener.stop() }
        let url = try #require(URL(string: "\(scheme)://127.0.0.1:\(listener.port)/x"))
        await #expect(throws: TransportError.unsupportedURL("\(scheme)://127.0.0.1:\(listener.port)/x")) {
            try await URLSession.shared.transport(URLRequest(url: url, timeoutInterval: 10))
        }
        #expect(listener.connections == 0)
    }

    @Test func anUnsupportedURLIsRedacted() async throws {
        let url = try #require(URL(string: "ftp://user:hunter2@127.0.0.1:1/x?token=abc"))
        let error = try await #require(throws: TransportError.self) {
            try await URLSession.shared.transport(URLRequest(url: url, timeoutInterval: 10))
        }
        #expect(!error.description.contains("hunter2") && !error.description.contains("abc"))
    }

    // MARK: - Responses

    @Test(arguments: Route.allCases)
    func twoDifferentContentLengthsFailInsteadOfReadingPastTheBody(route: Route) async throws {
        // libcurl reads the body by the last length: 13 bytes, "helloHTTP/1.1".
        let listener = try RawListener(
            always: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 13\r\n\r\nhelloHTTP/1.1 200 OK\r\n\r\n")
        defer { listener.stop() }
        let request = Self.request(listener, "x")
        let url = try #require(request.url).absoluteString
        await #expect(throws: TransportError.invalidContentLength("5, 13", url: url)) { try await route.transport(request) }
    }

    @Test func twoDifferentContentLengthsFailWhicheverComesFirst() async throws {
        // libcurl reads 5 bytes by the last length; the rest is left on the connection.
        let listener = try RawListener(
            always: "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 200 OK\r\n\r\n")
        defer { listener.stop() }
        let request = Self.request(listener, "x")
        let url = try #require(request.url).absoluteString
        await #expect(throws: TransportError.invalidContentLength("13, 5", url: url)) { try await URLSession.shared.transport(request) }
    }

    /// libcurl does not reuse a connection that sent more than the length it read (measured: a
    /// second connection answers), so what was left on it never answers another request.
    @Test(arguments: ["5, 13", "13, 5"])
    func theNextRequestAfterConflictingLengthsGetsItsOwnResponse(lengths: String) async throws {
        let parts = lengths.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let conflicting =
            "HTTP/1.1 200 OK\r\nContent-Length: \(parts[0])\r\nContent-Length: \(parts[1])\r\n\r\n"
            + "helloHTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled"
        let listener = try RawListener { index in
            Data((index == 0 ? conflicting : "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\ncontrol").utf8)
        }
        defer { listener.stop() }
        let transport = makeTestSession(timeout: 10).transport
        await #expect(throws: TransportError.self) { try await transport(Self.request(listener, "first")) }
        let (data, _) = try await transport(Self.request(listener, "second"))
        #expect(String(decoding: data, as: UTF8.self) == "control")
        #expect(listener.requestHeads == 2)
    }

    @Test func aRepeatedIdenticalContentLengthIsRead() async throws {
        let listener = try RawListener(always: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello")
        defer { listener.stop() }
        let (data, response) = try await URLSession.shared.transport(Self.request(listener, "x"))
        #expect(data == Data("hello".utf8))
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == "5, 5")
    }

    @Test func aRedirectWithConflictingLengthsIsNotFollowed() async throws {
        let listener = try RawListener { index in
            let head = "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 0\r\nContent-Length: 7\r\n\r\n"
            return Data((index == 0 ? head + "HTTP/1." : Self.ok).utf8)
        }
        defer { listener.stop() }
        let request = Self.request(listener, "first")
        await #expect(throws: TransportError.invalidContentLength("0, 7", url: try #require(request.url).absoluteString)) {
            try await URLSession.shared.transport(request)
        }
        #expect(listener.requestHeads == 1)
    }

    @Test func aDownloadWithConflictingLengthsFailsAndLeavesNoFile() async throws {
        let listener = try RawListener(
            always: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 13\r\n\r\nhelloHTTP/1.1 200 OK\r\n\r\n")
        defer { listener.stop() }
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("wire-check-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        let request = Self.request(listener, "x")
        await #expect(throws: TransportError.invalidContentLength("5, 13", url: try #require(request.url).absoluteString)) {
            try await download(Endpoint(baseURL: try #require(request.url)), to: destination, through: URLSession.shared.transport)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    /// Refused as its head arrives, the response writes nothing: the file it would have
    /// replaced is left as it was.
    @Test func aDownloadWithConflictingLengthsLeavesTheFileItWouldReplace() async throws {
        let listener = try RawListener(
            always: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 13\r\n\r\nhelloHTTP/1.1 200 OK\r\n\r\n")
        defer { listener.stop() }
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("wire-check-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        try Data("kept".utf8).write(to: destination)
        await #expect(throws: TransportError.self) {
            try await download(
                Endpoint(baseURL: try #require(Self.request(listener, "x").url)), to: destination, through: URLSession.shared.transport)
        }
        #expect(try String(contentsOf: destination, encoding: .utf8) == "kept")
    }

    // MARK: - Content-Length values

    @Test(arguments: ["0", "5", "5, 5", "5,5", "5 , 5", " 5 ", "5,,5", "5, 5, 5", "007, 7", "\t5\t"])
    func readsOneLengthPerhapsRepeated(value: String) {
        #expect(ContentLength.reading(value) == .length)
    }

    @Test(arguments: ["5, 13", "13, 5", "5, 5, 6", "0, 7"])
    func readsDifferentLengthsAsConflicting(value: String) {
        #expect(ContentLength.reading(value) == .conflicting)
    }

    @Test(arguments: ["", " ", ",", "abc", "5, x", "-1", "+5", "5 5", "0x10", "5;", "99999999999999999999999"])
    func readsAnythingButDecimalLengthsAsInvalid(value: String) {
        #expect(ContentLength.reading(value) == .invalid)
    }
}
