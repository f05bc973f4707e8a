import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A credential refresh is a call of its own: the settings of the request that met the 401 (a
/// download's destination, a status rule, an endpoint's size limit) do not reach it.
@Suite("A refresh without its caller's settings")
struct CallerSettingsTests {
    /// An API that answers only `Bearer fresh`, and a token endpoint whose answer is 120 bytes.
    static func makeServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.path == "/token" {
                return .json(#"{"access_token":"fresh","refresh_token":"r-\#(String(repeating: "x", count: 60))","expires_in":3600}"#)
            }
            return request.header("Authorization") == "Bearer fresh"
                ? .text("the report, for the holder of the fresh token")
                : .text("who are you?", status: 401)
        }
    }

    /// An authenticator whose refresh asks the token endpoint through `transport`.
    static func authenticator(_ server: LoopbackServer, refreshingThrough transport: @escaping Transport, _ refreshes: Counter)
        -> Authenticator
    {
        Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in
                refreshes.increment()
                var request = URLRequest(url: server.url(for: "/token"))
                request.httpMethod = "POST"
                let (data, _) = try await transport(request)
                struct Token: Decodable { let access_token: String }
                return .bearer(try JSONDecoder().decode(Token.self, from: data).access_token)
            }
        )
    }

    @Test func aRefreshDuringADownloadLeavesTheDownloadInTheFileAndSucceeds() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let session = makeTestNetworkSession()
        let refreshes = Counter()
        let auth = Self.authenticator(server, refreshingThrough: session.transport, refreshes)
        let folder = try DownloadTests.Folder()
        let destination = folder.file("report.txt")
        try await download(
            URLRequest(url: server.url(for: "/report")), to: destination,
            through: session.transport(with: .authenticated(by: auth), .validatingStatus()))
        #expect(try String(contentsOf: destination, encoding: .utf8) == "the report, for the holder of the fresh token")
        #expect(refreshes.value == 1)
        #expect(folder.names == ["report.txt"])
    }

    @Test func aRefreshIsHeldToNeitherTheEndpointsSizeLimitNorItsCallersStatusRule() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let session = makeTestNetworkSession()
        let refreshes = Counter()
        let auth = Self.authenticator(server, refreshingThrough: session.transport, refreshes)
        let send = networking(from: session.transport(with: .authenticated(by: auth), .validatingStatus()))
        // The report is 45 bytes and may be 64; the token's answer (about 120 bytes) is not the
        // report, and is held to the transport's own limit.
        let body = try await send(Endpoint(baseURL: server.baseURL, path: "/report").with(maximumResponseSize: 64)).value
        #expect(String(decoding: body, as: UTF8.self) == "the report, for the holder of the fresh token")
        #expect(refreshes.value == 1)
    }
}
