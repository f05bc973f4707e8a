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

    static func send(_ request: URLRequest, policy: TransportPolicy = TransportPolicy(secretHeaderNames: ["X-Shop-Session"])) async throws
        -> (String, HTTPURLResponse)
    {
        let (data, response) = try await makeTestSession().transport(policy: policy)(request)
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

    @Test(arguments: [307, 308], ["POST", "PUT", "PATCH"])
    func a307Or308KeepsTheMethodAndTheBody(status: Int, method: String) async throws {
        let other = try Self.echoServer()
        defer { other.stop() }
        let first = try LoopbackServer { _ in .redirect(to: other.url(for: "/landing"), status: status) }
        defer { first.stop() }
        var request = URLRequest(url: first.url(for: "/go"))
        request.httpMethod = method
        request.httpBody = Data(#"{"name":"iPad Pro","note":"ünïcode"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (text, _) = try await Self.send(request)
        #expect(text.hasPrefix("\(method) /landing\n"))
        #expect(text.contains(#"body={"name":"iPad Pro","note":"ünïcode"}"#))
        #expect(text.contains("Content-Type=application/json"))
        let received = try #require(await other.takeRequest(timeout: .seconds(30)))
        #expect(received.body == request.httpBody)
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
        let (text, _) = try await Self.send(request)
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
            _ = try await makeTestSession().transport(policy: policy)(URLRequest(url: server.url(for: "/loop?token=abc123")))
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
