import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport's cases over HTTPS (and HTTP/2 where the platform's client speaks it), end to
/// end through the package's own entry points: bodies byte for byte, redirects within an
/// origin, across origins and from HTTPS to HTTP, challenges and a refresh, and cancellation at
/// random moments.
///
/// LoopbackServer speaks plain HTTP/1.1, and the package takes no dependency, so TLS comes from
/// outside: `.ci/run` runs `.ci/tls-setup.sh up`, which installs a throwaway CA into the
/// system's trust store and starts nginx with TLS and HTTP/2 on two ports of 127.0.0.1 (two
/// origins), each proxying `/to/<port>/<path>` to the LoopbackServer on `<port>`; it names the
/// two origins in `FUNCTIONAL_NETWORKING_TLS` (`https://127.0.0.1:A,https://127.0.0.1:B`) and
/// tears all of it down afterwards. Without that variable (`swift test` on a developer's
/// machine) the suite is reported as skipped, never as passed.
@Suite(
    "Transport over HTTPS and HTTP/2",
    .enabled(
        if: TLSOrigins.isConfigured,
        "FUNCTIONAL_NETWORKING_TLS is not set: the HTTPS cases need .ci/tls-setup.sh (run by .ci/run as root)")
)
struct TLSTests {
    static let credentials = [("Authorization", "Bearer s3cr3t"), ("Cookie", "session=s3cr3t"), ("X-API-Key", "s3cr3t-key")]
    static let credentialHeaders = credentials.map(\.0)

    /// A server that answers every request with what arrived: request line, body and the
    /// headers asked about, one per line.
    static func echoServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            var lines = ["\(request.method) \(request.target)", "body=\(request.bodyText)"]
            for name in credentialHeaders + ["Accept", "Host", "X-Forwarded-Host"] {
                lines.append("\(name)=\(request.header(name) ?? "-")")
            }
            return .text(lines.joined(separator: "\n"))
        }
    }

    static func send(_ request: URLRequest) async throws -> (String, HTTPURLResponse) {
        let transport = makeTestSession().transport
        let (data, response) = try await Future { try await transport(request) }.timeout(after: .seconds(60)).value
        return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
    }

    /// `count` random bytes, eight at a time.
    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data(count: (count + 7) / 8 * 8)
        data.withUnsafeMutableBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 8) {
                bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
            }
        }
        return data.prefix(count)
    }

    // MARK: Bodies and the protocol

    @Test func aGetAndAPostArriveByteForByteOverHTTPS() async throws {
        let origins = try TLSOrigins.required()
        let download = Self.randomBytes(3 * 1_048_576 + 7)
        let upload = Self.randomBytes(2 * 1_048_576 + 13)
        let server = try LoopbackServer { request in
            request.method != "GET"
                ? LoopbackServer.Response(headers: [.init("Content-Type", "application/octet-stream")], body: request.body)
                : LoopbackServer.Response(headers: [.init("Content-Type", "application/octet-stream")], body: download)
        }
        defer { server.stop() }

        // A GET through the seed's entry point, with a path and a query that must arrive as sent.
        let base = origins.first.url(to: server, "")
        let endpoint = Endpoint(baseURL: base, path: "/files/café", queryItems: [URLQueryItem(name: "q", value: "a b&c")])
        let got = try await URLSession.shared.request(endpoint).timeout(after: .seconds(60)).value
        #expect(got == download)
        let get = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(get.target == "/files/caf%C3%A9?q=a%20b%26c")
        #expect(get.header("Host") == "127.0.0.1:\(server.port)", "nginx hands the LoopbackServer its own authority")
        #expect(get.header("X-Forwarded-Host") == origins.first.authority)

        // A POST through the transport, echoed back.
        var request = URLRequest(url: origins.first.url(to: server, "/upload"))
        request.httpMethod = "POST"
        request.httpBody = upload
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let post = request
        let (data, response) = try await Future { try await URLSession.shared.transport(post) }
            .timeout(after: .seconds(60)).value
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == upload)
        let received = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(received.method == "POST")
        #expect(received.body == upload)

        // A PUT streamed from a file (no buffering in nginx), through a composed stack.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tls-upload-\(UUID().uuidString)")
        let streamed = upload + download
        try streamed.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let send = networking(from: NetworkSession.shared.transport(with: .retry(), .validatingStatus()))
        let echoed = try await send(Endpoint(method: .put, baseURL: base, path: "/backups/big.bin").with(bodyFromFileAt: file))
            .timeout(after: .seconds(60)).value
        #expect(echoed == streamed)
        let put = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(put.method == "PUT")
        #expect(put.body == streamed)
    }

    @Test func theConnectionUsesHTTP2WhereTheClientSupportsIt() async throws {
        let origins = try TLSOrigins.required()
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let expected = ClientProtocolSupport.expectedProtocol
        var served: [String] = []
        for session in [URLSession.shared, URLSession(configuration: .default)] {
            let transport = session.transport
            for origin in [origins.first, origins.second] {
                let (data, response) = try await Future { try await transport(URLRequest(url: origin.url(to: server, "/p"))) }
                    .timeout(after: .seconds(60)).value
                let http = try #require(response as? HTTPURLResponse)
                #expect(String(decoding: data, as: UTF8.self) == "ok")
                #expect(
                    http.value(forHTTPHeaderField: "X-Served-Protocol") == expected,
                    "the client is \(ClientProtocolSupport.clientDescription)")
                served.append(http.value(forHTTPHeaderField: "X-Served-Protocol") ?? "-")
            }
        }
        TLSOrigins.report("protocols served: \(served.joined(separator: ", ")) (\(ClientProtocolSupport.clientDescription))")
    }

    // MARK: Redirects

    @Test(arguments: [307, 308])
    func aSameOriginRedirectKeepsTheMethodTheBodyAndTheCredentials(status: Int) async throws {
        let origins = try TLSOrigins.required()
        let server = try LoopbackServer()
        defer { server.stop() }
        // A path for 307, the server's own http URL for 308: nginx gives both back as https URLs
        // on the origin that was asked.
        let location = status == 307 ? "/landing" : server.url(for: "/landing").absoluteString
        server.dispatcher = { request in
            request.path == "/go"
                ? .redirect(to: location, status: status)
                : .text("\(request.method) \(request.path)\n\(request.bodyText)")
        }
        let body = #"{"name":"iPad Pro","note":"ünïcode"}"#
        var request = URLRequest(url: origins.first.url(to: server, "/go"))
        request.httpMethod = "PUT"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in Self.credentials {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (text, response) = try await Self.send(request)
        #expect(response.statusCode == 200)
        #expect(response.url == origins.first.url(to: server, "/landing"))
        #expect(text == "PUT /landing\n\(body)")
        let go = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(go.path == "/go")
        let landing = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(landing.body == Data(body.utf8))
        for (name, value) in Self.credentials {
            #expect(landing.header(name) == value, "\(name) stays within the origin")
        }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectToTheOtherOriginDropsEveryCredentialHeader(status: Int) async throws {
        let origins = try TLSOrigins.required()
        let other = try Self.echoServer()
        defer { other.stop() }
        let away = origins.second.url(to: other, "/landing")
        let first = try LoopbackServer { _ in .redirect(to: away, status: status) }
        defer { first.stop() }
        var request = URLRequest(url: origins.first.url(to: first, "/go"))
        for (name, value) in Self.credentials {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        let (text, response) = try await Self.send(request)
        #expect(response.statusCode == 200)
        #expect(response.url == away)
        #expect(!text.contains("s3cr3t"))
        // nginx passed them to the first origin, so their absence below is the transport's doing.
        let go = try #require(await first.takeRequest(timeout: .seconds(30)))
        for (name, value) in Self.credentials {
            #expect(go.header(name) == value)
        }
        let landing = try #require(await other.takeRequest(timeout: .seconds(30)))
        for name in Self.credentialHeaders {
            #expect(landing.header(name) == nil, "\(name) crossed to \(origins.second.authority)")
        }
        #expect(landing.header("Accept") == "text/plain", "other headers go along")
        #expect(landing.header("X-Forwarded-Host") == origins.second.authority)
    }

    @Test func theSameServerBehindTheOtherPortIsAnotherOriginForTheSeedsRequest() async throws {
        let origins = try TLSOrigins.required()
        let server = try LoopbackServer()
        defer { server.stop() }
        let away = origins.second.url(to: server, "/landing")
        // The landing answers with every header it received.
        server.dispatcher = { request in
            guard request.path == "/landing" else { return .redirect(to: away, status: 302) }
            return .text(request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "\n"))
        }
        let endpoint = Endpoint(baseURL: origins.first.url(to: server, ""), path: "/go")
            .setting(header: "Authorization", to: "Bearer s3cr3t")
            .setting(header: "Cookie", to: "session=s3cr3t")
            .setting(header: "X-API-Key", to: "s3cr3t-key")
        let data = try await URLSession.shared.request(endpoint).timeout(after: .seconds(60)).value
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("s3cr3t"))
        let go = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(go.header("Authorization") == "Bearer s3cr3t", "the first origin was given them")
        let landing = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(landing.path == "/landing")
        #expect(landing.header("X-Forwarded-Host") == origins.second.authority)
    }

    @Test func aRedirectFromHTTPSToHTTPFailsNamingBothURLsAndNothingReachesTheHTTPServer() async throws {
        let origins = try TLSOrigins.required()
        let plain = try LoopbackServer { _ in .text("must not be reached") }
        defer { plain.stop() }
        let insecure = plain.url(for: "/landing?page=2")
        let first = try LoopbackServer { _ in .redirect(to: insecure, status: 302) }
        defer { first.stop() }
        let start = origins.first.url(to: first, "/go")

        var authorized = URLRequest(url: start)
        authorized.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        let request = authorized
        let transport = URLSession.shared.transport
        let error = await #expect(throws: TransportError.self) {
            _ = try await Future { try await transport(request) }.timeout(after: .seconds(60)).value
        }
        #expect(error == .insecureRedirect(from: start.absoluteString, to: insecure.absoluteString))
        let words = error?.description ?? ""
        #expect(words.contains(start.absoluteString) && words.contains(insecure.absoluteString), "\(words)")

        // The seed's entry point refuses it the same way.
        let seedError = await #expect(throws: TransportError.self) {
            _ = try await URLSession.shared.request(Endpoint(baseURL: origins.second.url(to: first, ""), path: "/go"))
                .timeout(after: .seconds(60)).value
        }
        #expect(seedError == .insecureRedirect(from: origins.second.url(to: first, "/go").absoluteString, to: insecure.absoluteString))

        #expect(first.requestCount == 2)
        #expect(await plain.takeRequest(timeout: .milliseconds(500)) == nil)
        #expect(plain.requestCount == 0)
        #expect(plain.connectionCount == 0)
    }

    // MARK: Challenges and refresh

    @Test(arguments: 0..<ChallengeTests.challenges.count)
    func aChallengeOverHTTPSArrivesAsItsResponse(index: Int) async throws {
        let origins = try TLSOrigins.required()
        let challenge = ChallengeTests.challenges[index]
        let server = try LoopbackServer { _ in
            .json(#"{"error":"sign in"}"#, status: challenge.status, headers: [.init(challenge.header, challenge.value)])
        }
        defer { server.stop() }
        let (text, response) = try await Self.send(URLRequest(url: origins.first.url(to: server, "/me")))
        #expect(response.statusCode == challenge.status)
        #expect(response.value(forHTTPHeaderField: challenge.header) == challenge.value)
        #expect(text == #"{"error":"sign in"}"#)
        #expect(server.requestCount == 1, "credentials are never sent in answer to a challenge")
    }

    @Test func anAuthenticatorRefreshesOverHTTPSAndNeverSendsTheCredentialToAnotherOrigin() async throws {
        let origins = try TLSOrigins.required()
        let server = try LoopbackServer { request in
            request.header("Authorization") == "Bearer fresh"
                ? .json(#"{"me":"A"}"#)
                : .text("expired", status: 401, headers: [.init("WWW-Authenticate", #"Bearer realm="shop", error="invalid_token""#)])
        }
        defer { server.stop() }
        let refreshes = Counter()
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [try #require(Origin(url: origins.first.base))],
            refresh: { _ in
                refreshes.increment()
                return .bearer("fresh")
            })
        let send = networking(from: makeTestNetworkSession().transport(with: .retry(), .validatingStatus(), .authenticated(by: auth)))
        let data = try await send(Endpoint(baseURL: origins.first.url(to: server, ""), path: "/me")).timeout(after: .seconds(60)).value
        #expect(String(decoding: data, as: UTF8.self) == #"{"me":"A"}"#)
        #expect(refreshes.value == 1)
        let stale = try #require(await server.takeRequest(timeout: .seconds(30)))
        let fresh = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(stale.header("Authorization") == "Bearer stale")
        #expect(fresh.header("Authorization") == "Bearer fresh")

        // The same server behind the other port is not an allowed origin: no credential, a 401.
        let error = await #expect(throws: HTTPStatusError.self) {
            _ = try await send(Endpoint(baseURL: origins.second.url(to: server, ""), path: "/me")).timeout(after: .seconds(60)).value
        }
        #expect(error?.status == 401)
        let elsewhere = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(elsewhere.header("Authorization") == nil)
        #expect(refreshes.value == 1)
    }

    // MARK: Cancellation

    /// Requests per way of cancelling: a tenth of `FUNCTIONAL_NETWORKING_CANCELLATION_STRESS`
    /// when set, else 1,000.
    static let stressCount =
        ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_CANCELLATION_STRESS"]
        .flatMap { Int($0) }.map { max(1, $0 / 10) } ?? 1_000

    enum Way: String, CaseIterable, CustomTestStringConvertible {
        case futureCancel, taskCancel
        var testDescription: String { rawValue }
    }

    @Test(arguments: Way.allCases)
    func requestsCancelledAtRandomMomentsOverHTTPSNeitherCrashNorHang(_ way: Way) async throws {
        let origins = try TLSOrigins.required()
        let server = try CancellationStressTests.makeServer()
        defer { server.stop() }
        let sessions = [URLSession.shared, URLSession(configuration: .default)]
        let outcomes = StressOutcomes()
        let started = ContinuousClock.now
        try await withWatchdog(seconds: 300, "\(Self.stressCount) HTTPS requests cancelled by \(way)") {
            switch way {
            case .futureCancel:
                let sends = sessions.map { networking(from: $0.transport) }
                for index in 0..<Self.stressCount {
                    let origin = index % 4 < 2 ? origins.first : origins.second
                    let endpoint = Endpoint(baseURL: origin.url(to: server, ""), path: CancellationStressTests.path(index))
                    let future = sends[index % 2](endpoint)
                    outcomes.started += 1
                    try await CancellationStressTests.pause(index)
                    future.cancel()
                    outcomes.record(await Result { try await future.timeout(after: .seconds(60)).value })
                }
            case .taskCancel:
                let transports = sessions.map(\.transport)
                for index in 0..<Self.stressCount {
                    let origin = index % 4 < 2 ? origins.first : origins.second
                    let request = URLRequest(url: origin.url(to: server, CancellationStressTests.path(index)))
                    let transport = transports[index % 2]
                    let task = Task { try await transport(request) }
                    outcomes.started += 1
                    try await CancellationStressTests.pause(index)
                    task.cancel()
                    outcomes.record(await task.result)
                }
            }
        }
        #expect(outcomes.unexpected.isEmpty, "\(outcomes.unexpected.prefix(3))")
        #expect(outcomes.ended == outcomes.started)
        #expect(outcomes.cancelled > 0)
        TLSOrigins.report(
            "cancellation \(way): \(outcomes.started) requests, \(outcomes.cancelled) cancelled, "
                + "\(outcomes.ended - outcomes.cancelled - outcomes.unexpected.count) answered, "
                + "\(server.requestCount) reached the server, \(started.duration(to: .now))")
    }
}

/// The two HTTPS origins that `.ci/tls-setup.sh` starts, from `FUNCTIONAL_NETWORKING_TLS`.
struct TLSOrigins {
    /// One nginx port of 127.0.0.1 that proxies `/to/<port>/…` to a LoopbackServer.
    struct ProxyOrigin {
        let base: URL

        /// `127.0.0.1:<port>`, as a client names it in `Host`.
        var authority: String { "127.0.0.1:\(base.port ?? 443)" }

        /// `https://127.0.0.1:<nginx port>/to/<server's port><path>`; `path` may carry a query.
        func url(to server: LoopbackServer, _ path: String) -> URL {
            URL(string: "\(base.absoluteString)/to/\(server.port)\(path)")!
        }
    }

    let first: ProxyOrigin
    let second: ProxyOrigin

    static let variable = "FUNCTIONAL_NETWORKING_TLS"

    static var isConfigured: Bool {
        ProcessInfo.processInfo.environment[variable] != nil
    }

    struct Misconfigured: Error, CustomStringConvertible {
        let description: String
    }

    /// The two origins; throws, failing the test, when the variable does not name two
    /// `https://127.0.0.1:<port>` origins.
    static func required() throws -> TLSOrigins {
        let value = ProcessInfo.processInfo.environment[variable] ?? ""
        let urls = value.split(separator: ",").compactMap { URL(string: $0.trimmingCharacters(in: .whitespaces)) }
        let valid = urls.filter { $0.scheme == "https" && $0.host == "127.0.0.1" && $0.port != nil && ($0.path.isEmpty || $0.path == "/") }
        guard valid.count == 2, urls.count == 2, valid[0].port != valid[1].port else {
            throw Misconfigured(
                description: "\(variable) must name two origins, https://127.0.0.1:A,https://127.0.0.1:B; it is \"\(value)\"")
        }
        return TLSOrigins(first: ProxyOrigin(base: valid[0]), second: ProxyOrigin(base: valid[1]))
    }

    /// Writes a figure to standard error when `FUNCTIONAL_NETWORKING_REPORT` is set.
    static func report(_ line: String) {
        if ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_REPORT"] != nil {
            FileHandle.standardError.write(Data("tls \(line)\n".utf8))
        }
    }
}

/// Which protocol the platform's HTTP client should reach nginx with.
enum ClientProtocolSupport {
    #if canImport(FoundationNetworking)
    /// libcurl's `curl_version_info_data`, read from the libcurl that FoundationNetworking loaded:
    /// its version text (offset 8) and its feature bits (offset 32, `CURL_VERSION_HTTP2` = 1 << 16).
    private static let curl: (version: String, http2: Bool)? = {
        typealias VersionInfo = @convention(c) (Int32) -> UnsafeRawPointer?
        guard let symbol = dlsym(nil, "curl_version_info"),
            let data = unsafeBitCast(symbol, to: VersionInfo.self)(0)
        else { return nil }
        let version = data.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? "?"
        let features = data.load(fromByteOffset: 32, as: Int32.self)
        return (version, features & (1 << 16) != 0)
    }()

    static var expectedProtocol: String { curl?.http2 == true ? "HTTP/2.0" : "HTTP/1.1" }
    static var clientDescription: String {
        curl.map { "libcurl \($0.version), \($0.http2 ? "with" : "without") HTTP/2" } ?? "libcurl (version unknown)"
    }
    #else
    static var expectedProtocol: String { "HTTP/2.0" }
    static var clientDescription: String { "the system's URLSession" }
    #endif
}
