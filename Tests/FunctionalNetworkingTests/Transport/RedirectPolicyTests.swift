import Foundation
import FunctionalNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The redirect rules as functions: no server, a response and a request in, a decision out.
@Suite("RedirectPolicy and Redirect")
struct RedirectPolicyTests {
    static func redirect(
        from source: String,
        to location: String,
        status: Int = 302,
        method: String = "GET",
        headers: [String: String] = [:],
        hop: Int = 1
    ) throws -> Redirect {
        let url = try #require(URL(string: source))
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = method == "GET" ? nil : Data("body".utf8)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Location": location]))
        return try #require(Redirect(response: response, to: request, hop: hop))
    }

    @Test func aRedirectFromHTTPSToHTTPFailsByDefaultNamingBothRedactedURLs() throws {
        let redirect = try Self.redirect(
            from: "https://alice:pa55word@shop.example/login?token=abc123",
            to: "http://shop.example/home?token=abc123"
        )
        #expect(redirect.isInsecure)
        guard case .fail(let error) = RedirectPolicy.follow().decision(for: redirect) else {
            Issue.record("a downgrade must fail")
            return
        }
        let text = String(describing: error)
        #expect(text.contains("https://"))
        #expect(text.contains("http://shop.example/home"))
        #expect(!text.contains("pa55word"))
        #expect(!text.contains("abc123"))
        guard case .insecureRedirect? = error as? TransportError else {
            Issue.record("expected insecureRedirect, got \(error)")
            return
        }
    }

    @Test func aDowngradeIsFollowedOnlyWhenAllowed() throws {
        let redirect = try Self.redirect(from: "https://shop.example/a", to: "http://shop.example/b")
        guard case .follow(let next) = RedirectPolicy.follow(allowingInsecureRedirects: true).decision(for: redirect) else {
            Issue.record("an allowed downgrade is followed")
            return
        }
        #expect(next.url?.absoluteString == "http://shop.example/b")
    }

    @Test func anUpgradeToHTTPSIsNotADowngrade() throws {
        let redirect = try Self.redirect(from: "http://shop.example/a", to: "https://shop.example/a")
        #expect(!redirect.isInsecure)
        #expect(redirect.isCrossOrigin, "the scheme is part of the origin")
    }

    @Test(arguments: [307, 308])
    func aBodyToAnotherOriginFailsByDefaultNamingBothRedactedOrigins(status: Int) throws {
        let redirect = try Self.redirect(
            from: "https://alice:pa55word@api.example.com/oauth/token?client_secret=abc123",
            to: "https://bob:w0rd@other.example:8443/collect?token=xyz789",
            status: status,
            method: "POST"
        )
        #expect(redirect.isCrossOrigin && redirect.carriesBody)
        guard case .fail(let error) = RedirectPolicy.follow().decision(for: redirect) else {
            Issue.record("a body must not go to another origin unasked")
            return
        }
        let expected = TransportError.crossOriginBody(status: status, from: "https://api.example.com", to: "https://other.example:8443")
        #expect(error as? TransportError == expected)
        #expect(
            expected.description
                == "A \(status) redirect from https://api.example.com would resend the request's body to https://other.example:8443, "
                + "another origin, so the request was stopped and nothing was sent there. If that origin should receive the body, "
                + "allow it with RedirectPolicy.follow(allowingCrossOriginBodies: true)."
        )
        let words = [String(describing: error), error.localizedDescription, Redaction.default.describe(error)]
        for text in words {
            #expect(text.contains("https://api.example.com") && text.contains("https://other.example:8443"))
            for secret in ["pa55word", "alice", "w0rd", "abc123", "xyz789", "/oauth", "/collect"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
    }

    @Test(arguments: [307, 308])
    func aBodyToAnotherOriginIsFollowedOnlyWhenAllowed(status: Int) throws {
        let redirect = try Self.redirect(
            from: "https://api.example.com/a", to: "https://uploads.example.com/b", status: status, method: "PUT")
        guard case .follow(let next) = RedirectPolicy.follow(allowingCrossOriginBodies: true).decision(for: redirect) else {
            Issue.record("an allowed body is followed")
            return
        }
        #expect(next.httpMethod == "PUT")
        #expect(next.httpBody == Data("body".utf8))
        #expect(next.url?.absoluteString == "https://uploads.example.com/b")
    }

    @Test(arguments: [307, 308])
    func aBodyWithinTheOriginIsFollowed(status: Int) throws {
        let redirect = try Self.redirect(from: "https://api.example.com/a", to: "/b", status: status, method: "PATCH")
        guard case .follow(let next) = RedirectPolicy.follow().decision(for: redirect) else {
            Issue.record("the same origin keeps the body")
            return
        }
        #expect(next.httpBody == Data("body".utf8))
    }

    @Test func aRedirectThatDropsTheBodyOrHasNoneIsFollowedToAnotherOrigin() throws {
        for (status, method) in [(302, "POST"), (301, "POST"), (303, "POST"), (303, "PUT"), (303, "DELETE"), (307, "GET"), (308, "GET")] {
            let redirect = try Self.redirect(from: "https://api.example.com/a", to: "https://b.example/", status: status, method: method)
            #expect(!redirect.carriesBody, "\(status) \(method)")
            guard case .follow = RedirectPolicy.follow().decision(for: redirect) else {
                Issue.record("\(status) \(method) is followed")
                continue
            }
        }
    }

    @Test(arguments: [301, 302])
    func a301Or302ThatKeepsAPutsBodyIsRefusedAcrossOrigins(status: Int) throws {
        let redirect = try Self.redirect(from: "https://api.example.com/a", to: "https://b.example/", status: status, method: "PUT")
        #expect(redirect.carriesBody)
        guard case .fail(let error) = RedirectPolicy.follow().decision(for: redirect) else {
            Issue.record("a PUT's body must not go to another origin unasked")
            return
        }
        #expect(error as? TransportError == .crossOriginBody(status: status, from: "https://api.example.com", to: "https://b.example"))
    }

    @Test func aStreamedBodyIsABodyAndAnEmptyOneIsNot() throws {
        let url = try #require(URL(string: "https://api.example.com/a"))
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 307, httpVersion: nil, headerFields: ["Location": "https://b.example/"])
        )
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data("streamed".utf8))
        #expect(try #require(Redirect(response: response, to: request)).carriesBody)
        request.httpBodyStream = nil
        request.httpBody = Data()
        #expect(try #require(Redirect(response: response, to: request)).carriesBody == false)
    }

    @Test func anInsecureRedirectIsNamedFirstWhenItAlsoCarriesABody() throws {
        let redirect = try Self.redirect(from: "https://api.example.com/a", to: "http://b.example/", status: 307, method: "POST")
        guard case .fail(let error) = RedirectPolicy.follow(allowingCrossOriginBodies: true).decision(for: redirect),
            case .insecureRedirect? = error as? TransportError
        else {
            Issue.record("a downgrade fails even when bodies may cross")
            return
        }
        guard case .fail(let second) = RedirectPolicy.follow(allowingInsecureRedirects: true).decision(for: redirect),
            case .crossOriginBody? = second as? TransportError
        else {
            Issue.record("an allowed downgrade still keeps the body home")
            return
        }
    }

    @Test func aPolicyCanLetBodiesGoToOneTrustedOriginOnly() throws {
        let uploads = Origin(url: URL(string: "https://uploads.example.com"))
        let policy = RedirectPolicy { redirect in
            let trusted = Origin(url: redirect.proposedRequest.url) == uploads
            return RedirectPolicy.follow(allowingCrossOriginBodies: trusted).decision(for: redirect)
        }
        let toUploads = try Self.redirect(
            from: "https://api.example.com/a", to: "https://uploads.example.com/b", status: 307, method: "POST")
        let elsewhere = try Self.redirect(from: "https://api.example.com/a", to: "https://evil.example/b", status: 307, method: "POST")
        guard case .follow = policy.decision(for: toUploads), case .fail = policy.decision(for: elsewhere) else {
            Issue.record("only the trusted origin receives the body")
            return
        }
    }

    @Test func theProposedRequestDropsRoutingHeadersAcrossOriginsAndKeepsThemWithin() throws {
        let routing = [
            "Host": "internal.example", "x-forwarded-host": "internal.example", "Forwarded": "for=10.0.0.1;host=internal.example",
            "X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https", "X-Forwarded-Port": "443", "X-Forwarded-Prefix": "/v1",
            "X-Original-URL": "/admin", "X-Rewrite-URL": "/admin", "X-Original-Host": "internal.example", "X-Host": "internal.example",
            "X-HTTP-Host-Override": "internal.example", "X-Real-IP": "10.0.0.1", "X-Client-IP": "10.0.0.1",
            "True-Client-IP": "10.0.0.1", ":authority": "internal.example",
        ]
        let headers = routing.merging(["Accept": "application/json", "X-Request-ID": "42"]) { first, _ in first }
        let away = try Self.redirect(from: "https://a.example/x", to: "https://b.example/y", headers: headers)
        let kept = (away.proposedRequest.allHTTPHeaderFields ?? [:]).keys.map { $0.lowercased() }.sorted()
        #expect(kept == ["accept", "x-request-id"])
        let within = try Self.redirect(from: "https://a.example/x", to: "/y", headers: headers)
        #expect((within.proposedRequest.allHTTPHeaderFields ?? [:]).count == headers.count)
    }

    @Test func everyTransportErrorSaysTheSameWordsAsItsLocalizedDescription() {
        let errors: [TransportError] = [
            .responseTooLarge(limit: 10, url: "https://a.example/x"), .tooManyRedirects(limit: 20, url: "https://a.example/x"),
            .insecureRedirect(from: "https://a.example/x", to: "http://a.example/x"),
            .crossOriginBody(status: 307, from: "https://a.example", to: "https://b.example"),
            .downloadFailed(path: "/tmp/x", reason: "disk full"),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
            #expect((error as any Error).localizedDescription == error.description)
        }
    }

    @Test func theHopLimitFailsPastTheMaximum() throws {
        let policy = RedirectPolicy.follow(maximumHops: 3)
        guard case .follow = policy.decision(for: try Self.redirect(from: "http://a.example/", to: "/x", hop: 3)) else {
            Issue.record("the third hop is followed")
            return
        }
        guard case .fail(let error) = policy.decision(for: try Self.redirect(from: "http://a.example/", to: "/x", hop: 4)) else {
            Issue.record("the fourth hop fails")
            return
        }
        #expect(error as? TransportError == .tooManyRedirects(limit: 3, url: "http://a.example/"))
    }

    @Test func aCustomPolicyIsAPlainFunctionOfTheRedirect() throws {
        let sameOriginOnly = RedirectPolicy { redirect in
            redirect.isCrossOrigin ? .stop : .follow(redirect.proposedRequest)
        }
        guard case .stop = sameOriginOnly.decision(for: try Self.redirect(from: "http://a.example/", to: "http://b.example/")) else {
            Issue.record("another origin stops")
            return
        }
        guard case .follow(let next) = sameOriginOnly.decision(for: try Self.redirect(from: "http://a.example/x", to: "/y")) else {
            Issue.record("the same origin is followed")
            return
        }
        #expect(next.url?.absoluteString == "http://a.example/y")
    }

    @Test func anotherPortIsAnotherOrigin() throws {
        let redirect = try Self.redirect(
            from: "http://127.0.0.1:8080/a", to: "http://127.0.0.1:8081/a", headers: ["Authorization": "Bearer t"]
        )
        #expect(redirect.isCrossOrigin)
        #expect(redirect.proposedRequest.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func theProposedRequestDropsEveryCredentialHeaderAcrossOrigins() throws {
        let headers = [
            "Authorization": "Bearer t", "Proxy-Authorization": "Basic p", "Cookie": "a=b", "X-API-Key": "k",
            "api-key": "k2", "X-Auth-Token": "t2", "Accept": "application/json",
        ]
        let redirect = try Self.redirect(from: "https://a.example/x", to: "https://b.example/y", headers: headers)
        let kept = redirect.proposedRequest.allHTTPHeaderFields ?? [:]
        #expect(kept == ["Accept": "application/json"])
    }

    @Test func callerNamedSecretHeadersAreDroppedToo() throws {
        let url = try #require(URL(string: "https://a.example/x"))
        var request = URLRequest(url: url)
        request.setValue("s", forHTTPHeaderField: "X-Shop-Session")
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 307, httpVersion: nil, headerFields: ["Location": "https://b.example/"])
        )
        let redirect = try #require(Redirect(response: response, to: request, redaction: .default.redactingHeaders("x-shop-session")))
        #expect(redirect.proposedRequest.value(forHTTPHeaderField: "X-Shop-Session") == nil)
    }

    @Test func aRelativeLocationResolvesAgainstTheResponseURL() throws {
        let redirect = try Self.redirect(from: "https://a.example/v1/products/7", to: "../orders?page=2")
        #expect(redirect.proposedRequest.url?.absoluteString == "https://a.example/v1/orders?page=2")
        #expect(!redirect.isCrossOrigin)
    }

    @Test func aResponseThatIsNoRedirectGivesNone() throws {
        let url = try #require(URL(string: "https://a.example/"))
        let request = URLRequest(url: url)
        for (status, fields) in [(200, ["Location": "/x"]), (304, ["Location": "/x"]), (302, [:]), (302, ["Location": "ftp://a.example/"])]
        {
            let response = try #require(HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: fields))
            #expect(Redirect(response: response, to: request) == nil, "\(status) \(fields)")
        }
    }

    @Test func aHeadStaysAHeadUnderA303() throws {
        let redirect = try Self.redirect(from: "https://a.example/", to: "/b", status: 303, method: "HEAD")
        #expect(redirect.proposedRequest.httpMethod == "HEAD")
    }

    @Test func transportErrorsDescribeThemselvesInWords() {
        #expect(
            TransportError.responseTooLarge(limit: 67_108_864, url: "https://a.example/x").description
                == "The response from https://a.example/x is larger than the limit of 67,108,864 bytes (64 MiB) (decoded body), "
                + "so the transfer was cancelled. Raise TransportPolicy.maximumResponseSize, or Endpoint.maximumResponseSize "
                + "for this endpoint, if the response is expected to be this large."
        )
        #expect(TransportError.responseTooLarge(limit: 1_000, url: "u").description.contains("limit of 1,000 bytes ("))
        #expect(
            TransportError.tooManyRedirects(limit: 20, url: "https://a.example/loop").description
                == "Stopped following redirects after 20 hops; the last redirect came from https://a.example/loop."
        )
    }

    @Test func theDefaultPolicyKeepsSixtyFourMebibytes() {
        #expect(TransportPolicy.default.maximumResponseSize == 64 * 1_048_576)
        #expect(TransportPolicy(maximumResponseSize: -5).maximumResponseSize == 0)
    }
}
