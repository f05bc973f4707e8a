import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// 401 and 407 challenges reach the caller as responses, with headers and body, and never hang.
@Suite("Authentication challenges")
struct ChallengeTests {
    static let challenges: [(status: Int, header: String, value: String)] = [
        (401, "WWW-Authenticate", #"Basic realm="shop""#),
        (401, "WWW-Authenticate", #"Digest realm="shop", nonce="e3d002b9", qop="auth""#),
        (401, "WWW-Authenticate", #"Bearer realm="shop", error="invalid_token""#),
        (407, "Proxy-Authenticate", #"Basic realm="proxy""#),
    ]

    @Test(arguments: 0..<challenges.count)
    func aChallengeArrivesAsItsResponseWithHeadersAndBody(index: Int) async throws {
        let challenge = Self.challenges[index]
        let server = try LoopbackServer { _ in
            .json(#"{"error":"sign in"}"#, status: challenge.status, headers: [.init(challenge.header, challenge.value)])
        }
        defer { server.stop() }
        let transport = makeTestSession().transport
        let (data, response) = try await Future { try await transport(URLRequest(url: server.url(for: "/me"))) }
            .timeout(after: .seconds(60)).value
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == challenge.status)
        #expect(http.value(forHTTPHeaderField: challenge.header) == challenge.value)
        #expect(String(decoding: data, as: UTF8.self) == #"{"error":"sign in"}"#)
    }

    @Test func aBasicChallengeBecomesAnHTTPStatusErrorThroughTheSeedsRequest() async throws {
        let server = try LoopbackServer { _ in
            .text("who are you?", status: 401, headers: [.init("WWW-Authenticate", #"Basic realm="shop""#)])
        }
        defer { server.stop() }
        let error = await #expect(throws: HTTPStatusError.self) {
            _ = try await URLSession.shared.request(Endpoint(baseURL: server.baseURL, path: "/me"))
                .timeout(after: .seconds(60)).value
        }
        #expect(error?.status == 401)
    }

    @Test func aBasicChallengeTriggersTheRefreshAndTheRetrySucceeds() async throws {
        let server = try LoopbackServer { request in
            request.header("Authorization") == "Bearer fresh"
                ? .json(#"{"me":"A"}"#)
                : .text("expired", status: 401, headers: [.init("WWW-Authenticate", #"Basic realm="shop""#)])
        }
        defer { server.stop() }
        let store = CredentialStore(.bearer("stale"))
        let auth = Authenticator(
            store: store, allowedOrigins: [try #require(Origin(url: server.baseURL))],
            refresh: { _ in
                .bearer("fresh")
            })
        let send = networking(from: makeTestNetworkSession().transport(with: .authenticated(by: auth)))
        let data = try await send(Endpoint(baseURL: server.baseURL, path: "/me")).timeout(after: .seconds(60)).value
        #expect(String(decoding: data, as: UTF8.self) == #"{"me":"A"}"#)
    }
}

/// What the transport passes up from the platform names URLs redacted.
@Suite("Transport errors from the platform")
struct PlatformErrorTests {
    @Test func aConnectionFailureKeepsItsCodeAndHidesTheURLsSecrets() async throws {
        let port = try RefusingPort()
        let url = try #require(URL(string: "http://alice:pa55word@127.0.0.1:\(port.port)/x?token=t0k-S3CRET"))
        let error = await #expect(throws: TransportError.self) {
            _ = try await makeTestSession().transport(URLRequest(url: url))
        }
        #expect(error?.urlError?.code == .cannotConnectToHost || error?.urlError?.code == .networkConnectionLost)
        var dumped = ""
        dump(error, to: &dumped)
        let text = String(describing: error) + String(describing: error?.urlError) + dumped
        #expect(!text.contains("pa55word"))
        #expect(!text.contains("t0k-S3CRET"))
    }
}
