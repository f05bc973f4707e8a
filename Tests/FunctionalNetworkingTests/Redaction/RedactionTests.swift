import Foundation
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Redaction")
struct RedactionTests {
    private struct LeakyError: Error, CustomStringConvertible {
        let description: String
    }

    private func request(_ url: String, headers: [String: String] = [:]) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    @Test func theDefaultHidesAuthorizationCookieSetCookieAndProxyAuthorizationInAnyCase() {
        let headers: HTTPHeaders = [
            "authorization": "Bearer s3cr3t", "COOKIE": "a=s3cr3t", "Set-Cookie": "b=s3cr3t",
            "proxy-Authorization": "Basic s3cr3t", "Accept": "application/json",
        ]
        let redacted = Redaction.default.redact(headers)
        #expect(redacted["Authorization"] == "<redacted>")
        #expect(redacted["Cookie"] == "<redacted>")
        #expect(redacted["set-cookie"] == "<redacted>")
        #expect(redacted["Proxy-Authorization"] == "<redacted>")
        #expect(redacted["Accept"] == "application/json")
        #expect(redacted.map(\.name) == headers.map(\.name))
    }

    @Test func callerNamedHeadersAndQueryItemsAreHiddenToo() throws {
        let redaction = Redaction.default.redactingHeaders("X-Api-Key").redactingQueryItems("token")
        #expect(redaction.redact(["x-api-key": "k3y", "X-Other": "fine"]) == ["x-api-key": "<redacted>", "X-Other": "fine"])
        let url = try #require(URL(string: "https://shop.test/cart?page=2&Token=s3cr3t&token=again&flag#top"))
        #expect(redaction.redact(url) == "https://shop.test/cart?page=2&Token=<redacted>&token=<redacted>&flag#top")
        let plain = try #require(URL(string: "https://shop.test/cart?page=2&flag#top"))
        #expect(Redaction.default.redact(plain) == plain.absoluteString)
    }

    @Test(arguments: [
        "token", "access_token", "Refresh_Token", "id_token", "api_key", "APIKEY", "key", "password", "client_secret",
        "signature", "X-Amz-Signature", "X-Amz-Credential", "sig", "accessToken", "clientSecret",
    ])
    func theDefaultHidesCommonSecretQueryItemsInAnyCase(name: String) throws {
        let url = try #require(URL(string: "https://shop.test/a?page=2&\(name)=s3cr3t-value&b=1"))
        #expect(Redaction.default.redact(url) == "https://shop.test/a?page=2&\(name)=<redacted>&b=1")
        #expect(Redaction.default.isSecretQueryItem(name))
    }

    @Test(arguments: ["X-API-Key", "api-key", "X-Auth-Token", "x-access-token", "X-CSRF-Token", "X-Amz-Security-Token"])
    func theDefaultHidesAPIKeyAndTokenHeadersInAnyCase(name: String) {
        #expect(Redaction.default.isSecretHeader(name))
        #expect(Redaction.default.isSecretHeader(name.uppercased()))
        #expect(Redaction.default.redact([name: "s3cr3t"]) == [name: "<redacted>"])
        #expect(!Redaction.default.isSecretHeader("Accept"))
    }

    @Test func anErrorQuotingAURLIsDescribedWithTheURLRedactedEvenWithoutItsRequest() {
        let dump = LeakyError(
            description: "Error Domain=X Code=1 UserInfo={NSErrorFailingURLKey=http://alice:pa55word@shop.test/x?token=t0k-s3cr3t&page=2, "
                + "other=https://shop.test/y?access_token=acc-s3cr3t.}")
        let text = Redaction.default.describe(dump)
        #expect(!text.contains("pa55word"))
        #expect(!text.contains("t0k-s3cr3t"))
        #expect(!text.contains("acc-s3cr3t"))
        #expect(text.contains("http://<redacted>:<redacted>@shop.test/x?token=<redacted>&page=2, "))
        #expect(text.hasSuffix("https://shop.test/y?access_token=<redacted>.}"))
    }

    @Test func aPercentEncodedQueryItemNameIsRecognised() throws {
        let url = try #require(URL(string: "https://shop.test/?api%5Fkey=s3cr3t&q=a%20b"))
        #expect(Redaction.default.redactingQueryItems("api_key").redact(url) == "https://shop.test/?api%5Fkey=<redacted>&q=a%20b")
    }

    @Test func theUserAndPasswordOfAURLAreHidden() throws {
        let both = try #require(URL(string: "https://ann:pa55@shop.test:8443/a?b=1"))
        #expect(Redaction.default.redact(both) == "https://<redacted>:<redacted>@shop.test:8443/a?b=1")
        let user = try #require(URL(string: "ftp://ann@files.test/x"))
        #expect(Redaction.default.redact(user) == "ftp://<redacted>@files.test/x")
    }

    @Test func noneHidesNothing() throws {
        let url = try #require(URL(string: "https://ann:pa55@shop.test/a?token=s3cr3t"))
        #expect(Redaction.none.redact(url) == url.absoluteString)
        #expect(Redaction.none.redact(["Authorization": "Bearer s3cr3t"]) == ["Authorization": "Bearer s3cr3t"])
    }

    @Test func theMarkerCanBeChosen() {
        let redaction = Redaction(headers: ["X-Secret"], marker: "***")
        #expect(redaction.redact(["X-Secret": "s3cr3t"]) == ["X-Secret": "***"])
        #expect(!redaction.isSecretHeader("Authorization"))
    }

    @Test func describingARequestShowsItsShapeButNoSecretAndNoBody() throws {
        var request = try request(
            "https://shop.test/orders?token=s3cr3t",
            headers: ["Authorization": "Bearer s3cr3t", "Content-Type": "application/json"]
        )
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"card":"4111"}"#.utf8)
        let text = Redaction.default.redactingQueryItems("token").describe(request)
        #expect(
            text == """
                POST https://shop.test/orders?token=<redacted>
                Authorization: <redacted>
                Content-Type: application/json
                (body: 15 bytes)
                """)
    }

    @Test func describingAnErrorScrubsTheSecretsOfItsRequest() throws {
        let basic = "Basic " + Data("ann:pa55-s3cr3t".utf8).base64EncodedString()
        let request = try request(
            "https://shop.test/a?token=tok-s3cr3t",
            headers: ["Authorization": basic, "Cookie": "theme=dark; session=c00kie-s3cr3t"]
        )
        let leak = LeakyError(
            description: """
                GET https://shop.test/a?token=tok-s3cr3t failed; Authorization: \(basic); \
                user ann:pa55-s3cr3t; session c00kie-s3cr3t
                """)
        let text = Redaction.default.redactingQueryItems("token").describe(leak, for: request)
        #expect(!text.contains("s3cr3t"))
        #expect(!text.contains(Data("ann:pa55-s3cr3t".utf8).base64EncodedString()))
        #expect(text.contains("<redacted>"))
    }

    @Test func describingAURLErrorScrubsTheFailingURL() throws {
        let request = try request("https://shop.test/a?token=tok-s3cr3t")
        let url = try #require(request.url)
        let error = URLError(
            .cannotConnectToHost,
            userInfo: [
                NSURLErrorFailingURLErrorKey: url, "NSErrorFailingURLStringKey": url.absoluteString,
                NSLocalizedDescriptionKey: "Could not connect to \(url.absoluteString)",
            ])
        let text = Redaction.default.redactingQueryItems("token").describe(error, for: request)
        #expect(text.hasPrefix("URLError -1004"))
        #expect(!text.contains("tok-s3cr3t"))
    }

    @Test func describingAResponseErrorScrubsItsSetCookie() throws {
        let url = try #require(URL(string: "https://shop.test/login"))
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: nil,
            headerFields: [
                "Set-Cookie": "session=sess-s3cr3t; Path=/api; HttpOnly"
            ])
        let text = Redaction.default.describe(LeakyError(description: "got session=sess-s3cr3t at /api"), response: response)
        #expect(text == "got session=<redacted> at /api")
    }

    @Test func cancellationIsDescribedPlainly() {
        #expect(Redaction.default.describe(CancellationError()) == "cancelled")
    }

    // MARK: - One list of secret headers

    /// Whether a cross-origin redirect of a request carrying `name` drops it under `redaction`.
    private static func redirectDrops(_ name: String, redaction: Redaction) throws -> Bool {
        let url = try #require(URL(string: "https://a.example/x"))
        var request = URLRequest(url: url)
        request.setValue("s3cr3t", forHTTPHeaderField: name)
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 307, httpVersion: nil, headerFields: ["Location": "https://b.example/"]))
        let redirect = try #require(Redirect(response: response, to: request, redaction: redaction))
        return redirect.proposedRequest.value(forHTTPHeaderField: name) == nil
    }

    /// Whether the cache's and de-duplication's identity tells apart two requests differing only in `name`.
    private static func identityTellsApart(_ name: String, redaction: Redaction) throws -> Bool {
        let carriers = CredentialCarriers(redaction: redaction, cookieStorage: nil)
        var first = URLRequest(url: try #require(URL(string: "https://a.example/me")))
        var second = first
        first.setValue("user-a", forHTTPHeaderField: name)
        second.setValue("user-b", forHTTPHeaderField: name)
        return carriers.identity(of: first) != carriers.identity(of: second)
    }

    @Test func everyDefaultSecretHeaderIsHiddenDroppedOnARedirectAndPartOfTheIdentity() throws {
        for name in Redaction.defaultHeaderNames where name != "set-cookie" {
            #expect(Redaction.default.redact(HTTPHeaders([(name, "s3cr3t")]))[name] == "<redacted>", "\(name)")
            #expect(try Self.redirectDrops(name, redaction: .default), "\(name)")
            #expect(try Self.identityTellsApart(name, redaction: .default), "\(name)")
        }
    }

    @Test func aHeaderNamedOnceWithRedactingHeadersCountsEverywhereTheRedactionIsPassed() throws {
        let secrets = Redaction.default.redactingHeaders("X-Shop-Session")
        #expect(secrets.redact(HTTPHeaders([("x-shop-session", "s3cr3t")]))["X-Shop-Session"] == "<redacted>")
        #expect(try Self.redirectDrops("X-Shop-Session", redaction: secrets))
        #expect(try Self.identityTellsApart("X-Shop-Session", redaction: secrets))
        #expect(TransportPolicy(redaction: secrets).redaction.headerNames.contains("x-shop-session"))
        #expect(try !Self.redirectDrops("X-Shop-Session", redaction: .default))
        #expect(try !Self.identityTellsApart("X-Shop-Session", redaction: .default))
    }

    @Test func aRedactionThatShowsEverythingStillGuardsTheDefaultCredentials() throws {
        #expect(Redaction.none.redact(HTTPHeaders([("Authorization", "Bearer s3cr3t")]))["Authorization"] == "Bearer s3cr3t")
        #expect(try Self.redirectDrops("Authorization", redaction: .none))
        #expect(try Self.identityTellsApart("Cookie", redaction: .none))
    }

    // MARK: - One way to redact a URL

    @Test func everyDescriptionOfAURLIsTheOneRedactOutput() throws {
        let url = try #require(URL(string: "https://ann:pw@shop.test/a?token=s3cr3t&page=2#top"))
        let redacted = Redaction.default.redact(url)
        #expect(redacted == "https://<redacted>:<redacted>@shop.test/a?token=<redacted>&page=2#top")
        #expect(HTTPStatusError(status: 500, url: url).description.contains(" for \(redacted)."))
        #expect(
            Redaction.default.describe(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url])).hasSuffix(" for \(redacted)"))
    }
}
