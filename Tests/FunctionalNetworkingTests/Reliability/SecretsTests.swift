import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// No secret used in a request ever shows up in what the package writes down: log lines,
/// cURL strings, metrics, or the descriptions of its errors.
@Suite("Secrets")
struct SecretsTests {
    static let bearer = "b3arer-S3CRET"
    static let password = "pa55-S3CRET"
    static let cookie = "c00kie-S3CRET"
    static let apiKey = "ap1key-S3CRET"
    static let queryToken = "qu3ry-S3CRET"
    static let setCookie = "s3t-c00kie-S3CRET"
    static let secrets = [bearer, password, cookie, apiKey, queryToken, setCookie]

    /// Everything below, base64 of the Basic credentials included.
    static func leaks(in text: String) -> [String] {
        let basic = Data("ada:\(password)".utf8).base64EncodedString()
        return (secrets + [basic]).filter { text.contains($0) }
    }

    @Test func logsMetricsCURLAndErrorsNeverContainASecret() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/fail": return .text("nope", status: 500, headers: [.init("Set-Cookie", "id=\(Self.setCookie)")])
            case "/refuse": return .text("who?", status: 401)
            default: return .json(#"{"ok":true}"#, headers: [.init("Set-Cookie", "id=\(Self.setCookie)")])
            }
        }
        defer { server.stop() }
        let redaction = Redaction.default.redactingHeaders("X-Api-Key").redactingQueryItems("token")
        let lines = Recording()
        let metrics = MetricsRecorder()
        let auth = Authenticator(
            store: CredentialStore(.bearer(Self.bearer)),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in throw URLError(.userAuthenticationRequired) }
        )
        let transport = makeTestSession().transport(
            with: .numbered(),
            .logged(to: { lines.append($0.description + " " + $0.message + " " + ($0.error ?? "")) }, redaction: redaction),
            .metrics(into: metrics, redaction: redaction),
            .authenticated(by: auth),
            .retry(RetryPolicy(maxAttempts: 2, backoff: .immediate)),
            .validatingStatus()
        )
        var errors: [String] = []
        for path in ["/ok", "/fail", "/refuse"] {
            var request = URLRequest(url: server.url(for: "\(path)?token=\(Self.queryToken)&page=2"))
            request.setValue("session=\(Self.cookie)", forHTTPHeaderField: "Cookie")
            request.setValue(Self.apiKey, forHTTPHeaderField: "X-Api-Key")
            request.setValue(
                Credential.basic(username: "ada", password: Self.password).authorizationValue, forHTTPHeaderField: "Proxy-Authorization")
            lines.append(request.curlCommand(redaction: redaction))
            lines.append(redaction.describe(request))
            do {
                _ = try await transport(request)
            } catch {
                errors.append(String(describing: error))
                lines.append(redaction.describe(error, for: request))
            }
        }
        let decoding: Future<Product> = Future(value: Data(#"{"token":"\#(Self.queryToken)"}"#.utf8)).decoded()
        errors.append(String(describing: try #require(decoding.result?.failure)))
        errors.append(Credential.basic(username: "ada", password: Self.password).description)
        errors.append(Credential.bearer(Self.bearer).description)

        let everything = lines.values + errors + [metrics.summary.description]
        #expect(lines.values.count > 10)
        #expect(errors.count >= 4)
        for text in everything {
            #expect(Self.leaks(in: text).isEmpty, "leaked in: \(text)")
        }
    }

    @Test func nothingInThePackageTurnsTLSVerificationOff() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 50)
        let forbidden = [
            "serverTrust", "didReceive challenge", "URLCredential(trust", "allowsAnyHTTPSCertificate", "CURLOPT_SSL_VERIFY",
            "performDefaultHandling",
        ]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for word in forbidden {
                #expect(!text.contains(word), "\(file.lastPathComponent) mentions \(word)")
            }
        }
    }
}

/// Lines recorded from any thread.
final class Recording: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var values: [String] { lock.withLock { lines } }
}
