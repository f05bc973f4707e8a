import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two LoopbackServers are two origins (same host, other port): every redirect status, every
/// credential header, method and body rules, chains and loops, end to end through the
/// transport that `URLSession.transport` gives.
@Suite("Redirects, end to end")
struct RedirectTests {
    static let statuses = [301, 302, 303, 307, 308]
    static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie", "X-API-Key", "Api-Key", "X-Shop-Session"]

    /// A server that answers every request with what arrived: method, body and the headers
    /// asked about, one per line.
    static func echoServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            var lines = ["\(request.method) \(request.path)", "body=\(request.bodyText)"]
            for name in credentialHeaders + ["Content-Type", "Accept"] {
                lines.append("\(name)=\(request.header(name) ?? "-")")
            }
            return .text(lines.joined(separator: "\n"))
        }
    }

    static func send(
        _ request: URLRequest, policy: TransportPolicy = TransportPolicy(redaction: .default.redactingHeaders("X-Shop-Session"))
    ) async throws
        -> (String, HTTPURLResponse)
    {
        let (data, response) = try await makeTestNetworkSession(policy: policy).transport(request)
        return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
    }

    @Test(arguments: statuses, credentialHeaders)
    func aCredentialHeaderNeverFollowsARedirectToAnotherOrigin(status: Int, header: String) async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: status) }
        defer { first.stop() }
        var request = URLRequest(url: first.url(for: "/go"))
        request.setValue("s3cr3t-value", forHTTPHeaderField: header)
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        let (text, response) = try await Self.send(request)
        #expect(response.statusCode == 200)
        #expect(text.contains("\(header)=-"))
        #expect(!text.contains("s3cr3t-value"))
        #expect(text.contains("Accept=text/plain"), "other headers go along")
    }

    @Test func a401AfterARedirectToAnotherOriginNamesEveryCredentialHeaderItDropped() async throws {
        let other = try LoopbackServer { _ in .status(401) }
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/me")) }
        defer { first.stop() }
        var request = URLRequest(url: first.url(for: "/go"))
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("session=s3cr3t", forHTTPHeaderField: "Cookie")
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        let transport = makeTestNetworkSession().transport(with: .validatingStatus())
        let error = try #require(await #expect(throws: HTTPStatusError.self) { try await transport(request) })
        let dropped = try #require(error.credentialsDroppedByRedirect)
        #expect(dropped.headerNames == ["Authorization", "Cookie"])
        #expect(dropped.from == "http://127.0.0.1:\(first.port)")
        #expect(dropped.to == "http://127.0.0.1:\(other.port)")
        #expect(error.description.contains("so its Authorization and Cookie headers were not sent there"))
        #expect(!error.description.contains("s3cr3t"))
    }

    @Test func a401AfterARedirectWithinTheOriginOrWithoutCredentialsSaysNothingOfRedirects() async throws {
        let server = try LoopbackServer { request in request.path == "/go" ? .redirect(to: "/me") : .status(401) }
        defer { server.stop() }
        let other = try LoopbackServer { _ in .status(401) }
        defer { other.stop() }
        let elsewhere = try LoopbackServer { _ in .redirect(to: other.url(for: "/me")) }
        defer { elsewhere.stop() }
        let transport = makeTestNetworkSession().transport(with: .validatingStatus())
        var sameOrigin = URLRequest(url: server.url(for: "/go"))
        sameOrigin.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        let withoutCredentials = URLRequest(url: elsewhere.url(for: "/go"))
        for request in [sameOrigin, withoutCredentials] {
            let error = await #expect(throws: HTTPStatusError.self) { try await transport(request) }
            #expect(error?.credentialsDroppedByRedirect == nil)
            #expect(error?.description.contains("redirected") == false)
        }
    }

    @Test(arguments: statuses, credentialHeaders)
    func aCredentialHeaderFollowsARedirectWithinTheOrigin(status: Int, header: String) async throws {
        let server = try LoopbackServer { request in
            request.path == "/go" ? .redirect(to: "/landing", status: status) : .text(request.header(header) ?? "-")
        }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/go"))
        request.setValue("s3cr3t-value", forHTTPHeaderField: header)
        let (text, _) = try await Self.send(request)
        #expect(text == "s3cr3t-value")
    }

    /// `http://127.0.0.1:<port>`: how an error names the origin of `server`.
    static func origin(of server: LoopbackServer) -> String {
        "http://127.0.0.1:\(server.port)"
    }

    /// A token request: the kind of body that must never reach another origin unasked.
    static func tokenRequest(to url: URL, method: String) throws -> URLRequest {
        let form: FormBody = [
            "grant_type": "refresh_token", "refresh_token": "r3fr3sh-t0k3n", "client_secret": "cl13nt-s3cr3t", "password": "hunter2",
        ]
        return try Endpoint(method: HTTPMethod(rawValue: method), baseURL: url).with(body: form).urlRequest()
    }

    @Test(arguments: [307, 308], ["POST", "PUT", "PATCH"])
    func a307Or308WithinTheOriginKeepsTheMethodAndTheBody(status: Int, method: String) async throws {
        let server = try LoopbackServer { request in
            request.path == "/go" ? .redirect(to: "/landing", status: status) : .status(204)
        }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/go"))
        request.httpMethod = method
        request.httpBody = Data(#"{"name":"iPad Pro","note":"ünïcode"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await Self.send(request)
        #expect(response.statusCode == 204)
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        let received = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(received.method == method)
        #expect(received.path == "/landing")
        #expect(received.body == request.httpBody)
        #expect(received.header("Content-Type") == "application/json")
    }

    @Test(arguments: [307, 308], ["POST", "PUT", "PATCH"])
    func a307Or308ToAnotherOriginFailsNamingBothOriginsAndSendsItNothing(status: Int, method: String) async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/collect?token=t0k3n"), status: status) }
        defer { first.stop() }
        let request = try Self.tokenRequest(to: first.url(for: "/oauth/token?client_secret=cl13nt-s3cr3t"), method: method)
        let error = await #expect(throws: TransportError.self) { try await Self.send(request) }
        #expect(error == .crossOriginBody(status: status, from: Self.origin(of: first), to: Self.origin(of: other)))
        let words = try #require(error?.localizedDescription)
        #expect(words == error?.description)
        #expect(
            words.hasPrefix(
                "A \(status) redirect from \(Self.origin(of: first)) would resend the request's body to \(Self.origin(of: other)),"))
        #expect(words.contains("allowingCrossOriginBodies: true"))
        for secret in ["r3fr3sh-t0k3n", "cl13nt-s3cr3t", "hunter2", "t0k3n", "/oauth", "/collect"] {
            #expect(!words.contains(secret), "\(secret)")
        }
        #expect(other.requestCount == 0)
        #expect(other.connectionCount == 0, "not even a connection")
        #expect(first.requestCount == 1)
    }

    @Test(arguments: [307, 308])
    func aStreamedBodyIsNotResentToAnotherOriginEither(status: Int) async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/upload"), status: status) }
        defer { first.stop() }
        var form = MultipartFormData()
        form.append("hunter2", named: "password")
        let request = try Endpoint(method: .post, baseURL: first.url(for: "/upload")).with(body: form).urlRequest()
        let error = await #expect(throws: TransportError.self) { try await Self.send(request) }
        #expect(error == .crossOriginBody(status: status, from: Self.origin(of: first), to: Self.origin(of: other)))
        #expect(other.requestCount == 0)
    }

    @Test func a301ThatKeepsAPutsBodyIsRefusedAcrossOriginsToo() async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: 301) }
        defer { first.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await Self.send(try Self.tokenRequest(to: first.url(for: "/go"), method: "PUT"))
        }
        #expect(error == .crossOriginBody(status: 301, from: Self.origin(of: first), to: Self.origin(of: other)))
        #expect(other.requestCount == 0)
    }

    @Test(arguments: [307, 308], ["POST", "PUT", "PATCH"])
    func allowedCrossOriginBodiesArriveByteForByte(status: Int, method: String) async throws {
        let other = try LoopbackServer { _ in .status(204) }
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: status) }
        defer { first.stop() }
        let request = try Self.tokenRequest(to: first.url(for: "/go"), method: method)
        let policy = TransportPolicy(redirects: .follow(allowingCrossOriginBodies: true))
        let (_, response) = try await Self.send(request, policy: policy)
        #expect(response.statusCode == 204)
        let received = try #require(await other.takeRequest(timeout: .seconds(30)))
        #expect(received.method == method)
        #expect(received.body == request.httpBody)
        #expect(received.header("Content-Type") == FormBody.contentType)
    }

    @Test(arguments: [307, 308])
    func anAllowedStreamedBodyArrivesWholeAtTheOtherOrigin(status: Int) async throws {
        let other = try LoopbackServer { _ in .status(204) }
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/moved"), status: status) }
        defer { first.stop() }
        var form = MultipartFormData()
        form.append("kept", named: "field")
        form.append(Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }), named: "blob", filename: "blob.bin")
        let request = try Endpoint(method: .put, baseURL: first.url(for: "/upload")).with(body: form).urlRequest()
        let policy = TransportPolicy(redirects: .follow(allowingCrossOriginBodies: true))
        _ = try await Self.send(request, policy: policy)
        let received = try #require(await other.takeRequest(timeout: .seconds(30)))
        #expect(received.method == "PUT")
        #expect(received.formParts?.map(\.name) == ["field", "blob"])
        #expect(received.formParts?.last?.body == Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
    }

    @Test(arguments: [302, 303])
    func aPostThatBecomesAGetStillFollowsToAnotherOrigin(status: Int) async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: status) }
        defer { first.stop() }
        let (text, response) = try await Self.send(try Self.tokenRequest(to: first.url(for: "/login"), method: "POST"))
        #expect(response.statusCode == 200)
        #expect(text.hasPrefix("GET /landing\nbody=\n"))
        #expect(!text.contains("hunter2"))
    }

    static let routingHeaders = [
        "Host", "X-Forwarded-Host", "Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Port", "X-Original-URL",
        "X-Rewrite-URL", "X-Original-Host", "X-Real-IP",
    ]

    /// `request` with every routing header set, to `internal.shop.example`-style values.
    static func routed(_ request: URLRequest) -> URLRequest {
        var request = request
        for name in routingHeaders {
            request.setValue(name == "Host" ? "internal.shop.example" : "internal-\(name.lowercased())", forHTTPHeaderField: name)
        }
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        return request
    }

    @Test(arguments: statuses)
    func hostAndRoutingHeadersNeverFollowARedirectToAnotherOrigin(status: Int) async throws {
        let other = try LoopbackServer { _ in .status(204) }
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: status) }
        defer { first.stop() }
        _ = try await Self.send(Self.routed(URLRequest(url: first.url(for: "/go"))))
        let atFirst = try #require(await first.takeRequest(timeout: .seconds(30)))
        #expect(atFirst.header("Host") == "internal.shop.example", "the first origin gets what the caller set")
        let received = try #require(await other.takeRequest(timeout: .seconds(30)))
        #expect(received.header("Host") == "127.0.0.1:\(other.port)")
        for name in Self.routingHeaders.dropFirst() {
            #expect(received.header(name) == nil, "\(name)")
        }
        #expect(received.header("Accept") == "text/plain", "other headers go along")
    }

    @Test func hostAndRoutingHeadersFollowARedirectWithinTheOrigin() async throws {
        let server = try LoopbackServer { request in
            request.path == "/go" ? .redirect(to: "/landing", status: 307) : .status(204)
        }
        defer { server.stop() }
        _ = try await Self.send(Self.routed(URLRequest(url: server.url(for: "/go"))))
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        let received = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(received.path == "/landing")
        for name in Self.routingHeaders {
            #expect(received.header(name) != nil, "\(name)")
        }
    }

    @Test(arguments: [301, 302, 303])
    func aPostRedirectedBy301302Or303BecomesAGetWithoutBody(status: Int) async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: status) }
        defer { first.stop() }
        var request = URLRequest(url: first.url(for: "/go"))
        request.httpMethod = "POST"
        request.httpBody = Data("name=iPad".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let (text, _) = try await Self.send(request)
        #expect(text.hasPrefix("GET /landing\n"))
        #expect(text.contains("body=\n"))
        #expect(text.contains("Content-Type=-"))
    }

    @Test func a303TurnsAPutIntoAGetButA301KeepsIt() async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { request in
            .redirect(to: other.url(for: "/landing"), status: request.path == "/see-other" ? 303 : 301)
        }
        defer { first.stop() }
        var request = URLRequest(url: first.url(for: "/see-other"))
        request.httpMethod = "PUT"
        request.httpBody = Data("x".utf8)
        #expect(try await Self.send(request).0.hasPrefix("GET /landing\n"))
        request.url = first.url(for: "/moved")
        let (text, _) = try await Self.send(request, policy: TransportPolicy(redirects: .follow(allowingCrossOriginBodies: true)))
        #expect(text.hasPrefix("PUT /landing\n"))
        #expect(text.contains("body=x\n"))
    }

    @Test func aTwoHopChainDropsCredentialsAtTheFirstOriginChangeAndNeverRestoresThem() async throws {
        let home = try LoopbackServer()
        defer { home.stop() }
        let landing = home.url(for: "/landing")
        let away = try LoopbackServer { _ in .redirect(to: landing, status: 307) }
        defer { away.stop() }
        let bounce = away.url(for: "/bounce")
        home.dispatcher = { request in
            request.path == "/go"
                ? .redirect(to: bounce, status: 307)
                : .text(request.header("Authorization") ?? "-")
        }
        var request = URLRequest(url: home.url(for: "/go"))
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        let (text, response) = try await Self.send(request)
        #expect(text == "-")
        #expect(response.url?.path == "/landing")
        #expect(await away.takeRequest(timeout: .seconds(30))?.header("Authorization") == nil)
    }

    @Test func aRedirectLoopFailsAfterTheHopLimitNamingTheLastURL() async throws {
        let server = try LoopbackServer { _ in .redirect(to: "/loop?token=abc123", status: 302) }
        defer { server.stop() }
        let policy = TransportPolicy(redirects: .follow(maximumHops: 5))
        let error = await #expect(throws: TransportError.self) {
            _ = try await makeTestNetworkSession(policy: policy).transport(URLRequest(url: server.url(for: "/loop?token=abc123")))
        }
        guard case .tooManyRedirects(let limit, _)? = error else {
            Issue.record("expected tooManyRedirects, got \(String(describing: error))")
            return
        }
        #expect(limit == 5)
        #expect(server.requestCount == 6, "the first request and five redirects")
    }

    @Test func theDefaultPolicyFollowsTwentyRedirects() async throws {
        let server = try LoopbackServer { request in
            let hop = Int(request.path.dropFirst()) ?? 0
            return hop < 20 ? .redirect(to: "/\(hop + 1)", status: 302) : .text("arrived")
        }
        defer { server.stop() }
        let (text, _) = try await Self.send(URLRequest(url: server.url(for: "/0")), policy: .default)
        #expect(text == "arrived")
    }

    @Test func theNeverPolicyReturnsTheRedirectItself() async throws {
        let server = try LoopbackServer { _ in .redirect(to: "/elsewhere", status: 308) }
        defer { server.stop() }
        let (_, response) = try await Self.send(URLRequest(url: server.url(for: "/go")), policy: TransportPolicy(redirects: .never))
        #expect(response.statusCode == 308)
        #expect(response.value(forHTTPHeaderField: "Location") == "/elsewhere")
        #expect(server.requestCount == 1)
    }

    @Test func aRedirectToANonHTTPSchemeIsNotFollowed() async throws {
        let server = try LoopbackServer { _ in .redirect(to: "file:///etc/passwd", status: 302) }
        defer { server.stop() }
        let (_, response) = try await Self.send(URLRequest(url: server.url(for: "/go")))
        #expect(response.statusCode == 302)
    }

    @Test func theSeedShapedRequestOnTheSharedSessionDropsCredentialsAcrossOrigins() async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: 302) }
        defer { first.stop() }
        let endpoint = Endpoint(baseURL: first.baseURL, path: "/go")
            .setting(header: "Authorization", to: "Bearer s3cr3t")
            .setting(header: "X-API-Key", to: "k3y")
        let data = try await URLSession.shared.request(endpoint).timeout(after: .seconds(30)).value
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("Authorization=-"))
        #expect(text.contains("X-API-Key=-"))
    }
}
