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
        let lines = Collected<String>()
        let metrics = MetricsRecorder()
        let auth = Authenticator(
            store: CredentialStore(.bearer(Self.bearer)),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in throw URLError(.userAuthenticationRequired) }
        )
        let transport = makeTestNetworkSession().transport(
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

    /// The values the default redaction must hide with nothing named by the caller.
    static let queryNames = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "password", "client_secret", "signature",
        "X-Amz-Signature", "X-Amz-Credential", "sig",
    ]
    static func queryValue(_ name: String) -> String { "q-\(name.lowercased())-S3CRET" }
    static let headerNames = ["X-API-Key", "Api-Key", "X-Auth-Token", "Cookie", "Proxy-Authorization"]
    static func headerValue(_ name: String) -> String { "h-\(name.lowercased())-S3CRET" }
    static let userPassword = "us3r-pa55-S3CRET"
    static let bodySecrets = ["b0dy-password-S3CRET", "b0dy-refresh-S3CRET", "b0dy-client-S3CRET"]

    static func defaultLeaks(in text: String) -> [String] {
        let all =
            queryNames.map(queryValue) + headerNames.map(headerValue) + [bearer, userPassword] + bodySecrets
            + [Data("ada:\(password)".utf8).base64EncodedString()]
        return all.filter { text.contains($0) }
    }

    @Test func theDefaultRedactionAloneHidesEveryCommonSecretEverywhere() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/refuse":
                return .json(#"{"error":"invalid_grant","refresh_token":"\#(Self.bodySecrets[1])"}"#, status: 401)
            case "/fail": return .text("nope", status: 500)
            default: return .json(#"{"ok":true}"#)
            }
        }
        defer { server.stop() }
        let refused = try RefusingPort()  // not a stopped server: its port may go to another test's
        let closedPort = refused.port
        let lines = Collected<String>()
        let metrics = MetricsRecorder()
        let auth = Authenticator(
            store: CredentialStore(.bearer(Self.bearer)),
            allowedOrigins: [Origin(url: server.baseURL)!],
            refresh: { _ in throw URLError(.userAuthenticationRequired) }
        )
        let transport = makeTestNetworkSession().transport(
            with: .numbered(),
            .logged(to: { lines.append($0.description + " " + $0.message + " " + ($0.error ?? "")) }),
            .metrics(into: metrics),
            .authenticated(by: auth),
            .retry(RetryPolicy(maxAttempts: 2, backoff: .immediate)),
            .validatingStatus()
        )
        let query = Self.queryNames.map { "\($0)=\(Self.queryValue($0))" }.joined(separator: "&")
        var refusedCodes: [URLError.Code] = []
        var errors: [String] = []
        let targets =
            ["/ok", "/fail", "/refuse"].map { server.url(for: "\($0)?\(query)&page=2") } + [
                URL(string: "http://ada:\(Self.userPassword)@127.0.0.1:\(closedPort)/x?\(query)")!
            ]
        for url in targets {
            var request = URLRequest(url: url)
            if url.port != closedPort {
                // A POST is not retried; the refused GET is, and comes back as a network failure
                // with its URLError.
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(
                    #"{"user":"ada","password":"\#(Self.bodySecrets[0])","client_secret":"\#(Self.bodySecrets[2])"}"#.utf8)
            }
            for name in Self.headerNames {
                request.setValue(Self.headerValue(name), forHTTPHeaderField: name)
            }
            lines.append(request.curlCommand())
            lines.append(Redaction.default.describe(request))
            do {
                _ = try await transport(request)
            } catch {
                errors.append(String(describing: error))
                if let error = (error as? TransportError)?.urlError { refusedCodes.append(error.code) }
                lines.append(Redaction.default.describe(error, for: request))
                lines.append(Redaction.default.describe(error))
            }
        }

        let everything = lines.values + errors + [metrics.summary.description]
        #expect(errors.count == 3)
        #expect(refusedCodes == [.cannotConnectToHost])  // the refused GET, after its 2 attempts
        #expect(errors.contains { $0.contains("refresh_token") })  // the 401 body preview, its value hidden
        for text in everything {
            #expect(Self.defaultLeaks(in: text).isEmpty, "leaked in: \(text)")
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
            "serverTrust", "URLCredential(trust", "allowsAnyHTTPSCertificate", "CURLOPT_SSL_VERIFY", ".useCredential",
        ]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for word in forbidden {
                #expect(!text.contains(word), "\(file.lastPathComponent) mentions \(word)")
            }
        }
        // The one challenge handler leaves every challenge but a 401 or 407 to the platform.
        let delegate = try #require(files.first { $0.lastPathComponent == "SessionDelegate.swift" })
        #expect(try String(contentsOf: delegate, encoding: .utf8).contains("completionHandler(.performDefaultHandling, nil)"))
    }
}
