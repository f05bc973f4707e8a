import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every error the stack makes or passes up describes itself in words, with its URLs
/// redacted: never an `NSError` dump quoting a password or a token.
@Suite("Error descriptions")
struct ErrorWordsTests {
    static let leakyURL = URL(string: "http://alice:pa55word@127.0.0.1:9/x?token=t0k-S3CRET&access_token=acc-S3CRET&api_key=k3y-S3CRET")!

    /// The error URLSession gives for a refused connection, with its failing URL.
    static let refused = URLError(
        .cannotConnectToHost,
        userInfo: [NSURLErrorFailingURLErrorKey: leakyURL, "NSErrorFailingURLStringKey": leakyURL.absoluteString]
    )

    static func leaks(_ text: String) -> [String] {
        ["pa55word", "t0k-S3CRET", "acc-S3CRET", "k3y-S3CRET", "NSErrorFailingURLKey"].filter { text.contains($0) }
    }

    @Test func everyErrorThatWrapsAnotherDescribesItWithoutItsSecrets() {
        struct Wrapped: Error, CustomStringConvertible {
            var description: String { "failed at \(ErrorWordsTests.leakyURL.absoluteString)" }
        }
        let texts = [
            String(describing: SequentialQueue.Failure(completed: [], index: 0, underlying: Self.refused)),
            String(describing: SequentialQueue.Failure(completed: [], index: 0, underlying: Wrapped())),
            Redaction.default.describe(Self.refused),
            Redaction.default.describe(Wrapped()),
            String(describing: HTTPStatusError(status: 500, body: Data(#"{"token":"t0k-S3CRET"}"#.utf8), url: Self.leakyURL)),
            String(describing: TimeoutError(limit: .seconds(2))),
        ]
        for text in texts {
            #expect(Self.leaks(text).isEmpty, "\(text)")
        }
    }

    @Test func aFailedRefreshDescribesTheRefreshErrorInWords() async throws {
        let server = try LoopbackServer { _ in .text("who?", status: 401) }
        defer { server.stop() }
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in throw ErrorWordsTests.refused }
        )
        let transport = makeTestNetworkSession().transport(with: .authenticated(by: auth))
        let error = await #expect(throws: AuthenticationError.self) {
            try await transport(URLRequest(url: server.url(for: "/me")))
        }
        let text = try #require(error).description
        #expect(Self.leaks(text).isEmpty, "\(text)")
        #expect(text.hasPrefix("Refreshing the credential failed: URLError -1004 (could not connect to the server) for http://<redacted>"))
    }

    @Test func aRefusedConnectionThroughRetryIsTheSessionsNetworkFailureAndRedactionDescribesItWithoutSecrets() async throws {
        let refusing = try RefusingPort()  // not a stopped server's port: another test's server may get it
        defer { withExtendedLifetime(refusing) {} }
        let url = try #require(URL(string: "http://alice:pa55word@127.0.0.1:\(refusing.port)/x?token=t0k-S3CRET&api_key=k3y-S3CRET"))
        let transport = makeTestNetworkSession().transport(with: .retry(RetryPolicy(maxAttempts: 2, backoff: .immediate)))
        let error = try #require(await #expect(throws: TransportError.self) { try await transport(URLRequest(url: url)) })
        #expect(error.urlError?.code == .cannotConnectToHost)
        #expect(error.attempts == 2)
        for text in [Redaction.default.describe(error), Redaction.default.describe(try #require(error.urlError))] {
            #expect(Self.leaks(text).isEmpty, "\(text)")
        }
        #expect(Redaction.default.describe(try #require(error.urlError)).contains("URLError -1004"))
    }
}

/// What each transport failure says, in words, with the redacted URL.
@Suite("Error descriptions: transport failures in words")
struct TransportFailureWordsTests {
    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, "could not connect to the server"),
        (.timedOut, "the request timed out"),
        (.cannotFindHost, "cannot find the host"),
        (.dnsLookupFailed, "DNS failed"),
        (.secureConnectionFailed, "TLS failed: a secure connection could not be made"),
        (.serverCertificateUntrusted, "TLS failed: the server's certificate is not trusted"),
        (.serverCertificateHasBadDate, "TLS failed: the server's certificate has expired"),
        (.networkConnectionLost, "the connection was lost"),
        (.notConnectedToInternet, "not connected to the internet"),
    ])
    func eachFailureSaysWhatHappenedWithTheRedactedURL(code: URLError.Code, words: String) throws {
        let url = try #require(URL(string: "https://alice:pa55word@shop.test/a?token=t0k-S3CRET"))
        let text = Redaction.default.describe(URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        #expect(text.contains(words), "\(text)")
        #expect(text.hasSuffix("for https://<redacted>:<redacted>@shop.test/a?token=<redacted>"), "\(text)")
    }

    @Test func anErrorWithoutAFailingURLNamesTheRequestsURLRedacted() throws {
        let url = try #require(URL(string: "https://shop.test/a?token=t0k-S3CRET"))
        let text = Redaction.default.describe(URLError(.timedOut), for: URLRequest(url: url))
        #expect(text == "URLError -1001 (the request timed out) for https://shop.test/a?token=<redacted>")
    }

    @Test func anUnreachableHostThroughNetworkingIsDescribedInOneLine() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let send = networking(from: makeTestSession().transport)
        let endpoint = Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: refusing.port), path: "/items")
        let error = try #require(await send(endpoint).result(within: .seconds(30)).failure)
        let text = Redaction.default.describe(error)
        #expect(
            text
                == "The request to http://127.0.0.1:\(refusing.port)/items could not connect: the connection was refused, "
                + "or the server could not be reached."
        )
    }
}
