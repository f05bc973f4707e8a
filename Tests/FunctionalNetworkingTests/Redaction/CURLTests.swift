import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("cURL")
struct CURLTests {
    /// Runs `command` with `/bin/sh -c`, giving up after 30 s.
    private func shell(_ command: String) async throws -> ShellRun {
        let candidates = ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"]
        try #require(
            candidates.contains { FileManager.default.isExecutableFile(atPath: $0) },
            "curl is not installed (looked in \(candidates)); these tests need it"
        )
        return try await runShell(command)
    }

    /// Runs the request's command against `server` and returns what the server recorded.
    private func replay(_ request: URLRequest, on server: LoopbackServer) async throws -> LoopbackServer.RecordedRequest {
        let command = request.curlCommand(redaction: .none) + " --silent --show-error --max-time 20"
        let run = try await shell(command)
        #expect(run.status == 0, "curl failed: \(run.errors)\n\(command)")
        return try #require(await server.takeRequest(timeout: .seconds(30)), "The server saw no request for \(command)")
    }

    private let awkwardText = "line one\nit's $HOME and `whoami` and \\n and \"quotes\"\n  two  spaces\tand a tab ü €"

    @Test func theCommandSendsTheSameMethodPathQueryHeadersAndBody() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/orders/it's%20here?q=a%20b&dollar=$x&tick=%60&list=%5B1%5D"))
        request.httpMethod = "PATCH"
        request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
        request.setValue("it's \"quoted\" $HOME `whoami` a;b", forHTTPHeaderField: "X-Awkward")
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(awkwardText.utf8)

        let recorded = try await replay(request, on: server)
        #expect(recorded.method == "PATCH")
        #expect(recorded.target == "/orders/it's%20here?q=a%20b&dollar=$x&tick=%60&list=%5B1%5D")
        #expect(recorded.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(recorded.header("X-Awkward") == "it's \"quoted\" $HOME `whoami` a;b")
        #expect(recorded.header("Authorization") == "Bearer s3cr3t")
        #expect(recorded.bodyText == awkwardText)
    }

    @Test func aBinaryBodyArrivesByteForByte() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/upload"))
        request.httpMethod = "PUT"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let bytes = Data((0...255).map(UInt8.init) + Array("%s\\'".utf8) + [0, 0xFF, 0x27])
        request.httpBody = bytes
        let command = request.curlCommand()
        #expect(command.hasPrefix("printf '"))
        #expect(command.contains("--data-binary @-"))

        let recorded = try await replay(request, on: server)
        #expect(recorded.method == "PUT")
        #expect(recorded.body == bytes)
    }

    @Test func aBodyStartingWithAtIsSentAsTextNotReadAsAFile() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/mention"))
        request.httpMethod = "POST"
        request.httpBody = Data("@/etc/passwd".utf8)
        #expect(request.curlCommand().contains("--data-raw '@/etc/passwd'"))
        #expect(try await replay(request, on: server).bodyText == "@/etc/passwd")
    }

    @Test func aGetWithABodyKeepsItsMethod() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/search"))
        request.httpBody = Data(#"{"q":"x"}"#.utf8)
        #expect(request.curlCommand().hasPrefix("curl -X 'GET' "))
        let recorded = try await replay(request, on: server)
        #expect(recorded.method == "GET")
        #expect(recorded.bodyText == #"{"q":"x"}"#)
    }

    @Test func aPlainGetHasNoMethodFlag() throws {
        var request = URLRequest(url: try #require(URL(string: "https://shop.test/products?page=2")))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        #expect(request.curlCommand() == "curl -H 'Accept: application/json' 'https://shop.test/products?page=2'")
    }

    @Test func aHeadRequestUsesHead() throws {
        var request = URLRequest(url: try #require(URL(string: "https://shop.test/")))
        request.httpMethod = "HEAD"
        #expect(request.curlCommand() == "curl --head 'https://shop.test/'")
    }

    @Test func singleQuotesAreClosedEscapedAndReopened() throws {
        var request = URLRequest(url: try #require(URL(string: "https://shop.test/")))
        request.httpMethod = "POST"
        request.setValue("it's", forHTTPHeaderField: "X-Note")
        request.httpBody = Data("a 'b' $c `d`\ne".utf8)
        #expect(
            request.curlCommand() == #"curl -X 'POST' -H 'X-Note: it'\''s' --data-binary 'a '\''b'\'' $c `d`"# + "\n"
                + #"e' 'https://shop.test/'"#)
    }

    @Test func anEmptyHeaderValueIsSentEmpty() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/"))
        request.allHTTPHeaderFields = ["X-Empty": ""]
        #expect(request.curlCommand() == "curl -H 'X-Empty;' '\(server.url(for: "/").absoluteString)'")
        let recorded = try await replay(request, on: server)
        #expect(recorded.header("X-Empty") == "")
    }

    @Test func bracketsInTheURLTurnGlobbingOff() throws {
        let request = URLRequest(url: try #require(URL(string: "https://shop.test/?filter%5Bname%5D=a&x=%7B%7D")))
        #expect(!request.curlCommand().contains("--globoff"))
        let literal = URLRequest(url: try #require(URL(string: "http://[::1]:8080/")))
        #expect(literal.curlCommand() == "curl --globoff 'http://[::1]:8080/'")
    }

    @Test func secretsAreRedactedByDefault() throws {
        var request = URLRequest(url: try #require(URL(string: "https://ann:pa55@shop.test/a?token=s3cr3t&page=1")))
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("session=s3cr3t", forHTTPHeaderField: "Cookie")
        request.setValue("Basic \(Data("ann:pa55".utf8).base64EncodedString())", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("s3cr3t", forHTTPHeaderField: "X-Api-Key")
        let command = request.curlCommand(redaction: .default.redactingHeaders("X-Api-Key").redactingQueryItems("token"))
        #expect(!command.contains("s3cr3t"))
        #expect(!command.contains("pa55"))
        #expect(!command.contains(Data("ann:pa55".utf8).base64EncodedString()))
        #expect(command.contains("-H 'Authorization: <redacted>'"))
        #expect(command.contains("'https://<redacted>:<redacted>@shop.test/a?token=<redacted>&page=1'"))
        #expect(!request.curlCommand().contains("Bearer"))
    }

    @Test func secretJSONMembersAndFormFieldsOfTheBodyAreRedactedByDefault() throws {
        var json = URLRequest(url: try #require(URL(string: "https://shop.test/login")))
        json.httpMethod = "POST"
        json.httpBody = Data(#"{"user":"ada","password":"pa55-s3cr3t","nested":{"refresh_token" : "r3fresh-s3cr3t"},"pin":1234}"#.utf8)
        let jsonCommand = json.curlCommand()
        #expect(!jsonCommand.contains("s3cr3t"))
        #expect(jsonCommand.contains(#"{"user":"ada","password":"<redacted>","nested":{"refresh_token" : "<redacted>"},"pin":1234}"#))

        var form = URLRequest(url: try #require(URL(string: "https://shop.test/oauth/token")))
        form.httpMethod = "POST"
        form.httpBody = Data("grant_type=refresh_token&refresh_token=r3fresh-s3cr3t&client_secret=cl1ent-s3cr3t&scope=a+b".utf8)
        let formCommand = form.curlCommand()
        #expect(!formCommand.contains("s3cr3t"))
        #expect(formCommand.contains("'grant_type=refresh_token&refresh_token=<redacted>&client_secret=<redacted>&scope=a+b'"))

        #expect(json.curlCommand(redaction: .none).contains("pa55-s3cr3t"))  // .none sends the request as it is
    }
}
