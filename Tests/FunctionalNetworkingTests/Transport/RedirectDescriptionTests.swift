import Foundation
import FunctionalNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Redirect and RedirectDecision descriptions")
struct RedirectDescriptionTests {
    static func redirect(to location: String) throws -> Redirect {
        var request = URLRequest(url: URL(string: "https://a.test/me?token=s3cr3t")!)
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("*/*", forHTTPHeaderField: "Accept")
        let response = try #require(
            HTTPURLResponse(url: request.url!, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": location]))
        return try #require(Redirect(response: response, to: request))
    }

    @Test func showsTheStatusTheHopAndWhereItLeadsWithURLsRedacted() throws {
        let redirect = try Self.redirect(to: "https://b.test/me")
        #expect(redirect.description == "302, hop 1: GET https://a.test/me?token=<redacted> → GET https://b.test/me (leaves the origin)")
    }

    @Test func debugDescriptionAddsTheNextRequestsHeadersWithSecretValuesHidden() throws {
        let redirect = try Self.redirect(to: "/next")
        #expect(String(reflecting: redirect).hasSuffix("→ GET https://a.test/next [Accept: */*, Authorization: <redacted>])"))
    }

    @Test func aDecisionShowsTheRequestItFollowsOrTheErrorInWords() throws {
        let redirect = try Self.redirect(to: "/next")
        #expect(RedirectDecision.follow(redirect.request).description == "follow GET https://a.test/me?token=<redacted>")
        #expect(RedirectDecision.stop.description == "stop")
        #expect(
            String(reflecting: RedirectDecision.fail(URLError(.timedOut)))
                == "RedirectDecision(fail: URLError -1001 (the request timed out))")
    }
}
