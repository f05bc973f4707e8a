import Foundation
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HTTPStatusError")
struct HTTPStatusErrorTests {
    let url = URL(string: "https://shop.test/products/7?token=secret")!

    @Test func descriptionSaysTheStatusItsMeaningAndTheBody() {
        let error = HTTPStatusError(status: 404, body: Data("missing".utf8), url: url)
        #expect(error.description.hasPrefix("The server answered 404 ("))
        #expect(error.description.contains("shop.test/products/7"))
        #expect(error.description.hasSuffix("Body: missing"))
    }

    @Test func descriptionNeverShowsQueryValues() {
        let error = HTTPStatusError(status: 500, url: url)
        #expect(!error.description.contains("secret"))
    }

    @Test func theBodyPreviewHidesSecretNamedFields() {
        let body = Data(#"{"error":"invalid_grant","refresh_token":"r3fresh-s3cr3t","access_token":"acc-s3cr3t"}"#.utf8)
        let error = HTTPStatusError(status: 401, body: body, url: url)
        #expect(!error.description.contains("s3cr3t"))
        #expect(error.description.hasSuffix(#"Body: {"error":"invalid_grant","refresh_token":"<redacted>","access_token":"<redacted>"}"#))
        let form = HTTPStatusError(status: 400, body: Data("error=bad&password=pa55-s3cr3t".utf8))
        #expect(form.description.hasSuffix("Body: error=bad&password=<redacted>"))
    }

    @Test func aSecretCutByThePreviewIsHiddenToo() {
        let body = Data(
            (#"{"padding":""# + String(repeating: "x", count: 150) + #"","token":""# + String(repeating: "s", count: 2_000) + #""}"#).utf8)
        let error = HTTPStatusError(status: 401, body: body)
        #expect(!error.description.contains("sss"))
        #expect(error.description.hasSuffix("…"))
    }

    @Test func checkAcceptsTwoHundredsAndRejectsTheRest() throws {
        let ok = HTTPURLResponse(url: url, statusCode: 204, httpVersion: nil, headerFields: nil)!
        try HTTPStatusError.check(ok, data: Data())
        let teapot = HTTPURLResponse(url: url, statusCode: 418, httpVersion: nil, headerFields: ["Retry-After": "5"])!
        #expect(throws: HTTPStatusError.self) { try HTTPStatusError.check(teapot, data: Data()) }
        do {
            try HTTPStatusError.check(teapot, data: Data("tea".utf8))
        } catch let error as HTTPStatusError {
            #expect(error.status == 418)
            #expect(error.headers["retry-after"] == "5")
            #expect(error.body == Data("tea".utf8))
        }
    }

    @Test func checkTakesTheAcceptableStatusesItIsGiven() throws {
        let notModified = HTTPURLResponse(url: url, statusCode: 304, httpVersion: nil, headerFields: nil)!
        try HTTPStatusError.check(notModified, data: Data(), acceptable: 200..<400)
        #expect(throws: HTTPStatusError.self) { try HTTPStatusError.check(notModified, data: Data()) }
    }

    @Test func decodedBodyGivesTheServersErrorModel() throws {
        struct Problem: Decodable { let message: String }
        let error = HTTPStatusError(status: 400, body: Data(#"{"message":"bad"}"#.utf8))
        #expect(try error.decodedBody(as: Problem.self).message == "bad")
        #expect(throws: DecodingFailure.self) { try HTTPStatusError(status: 400).decodedBody(as: Problem.self) }
    }

    @Test func aBodyThatIsNotTheErrorModelNamesItsContentTypeInTheResponsePathsWords() throws {
        struct Problem: Decodable, Sendable { let message: String }
        let html = Data("<html><h1>Bad gateway</h1></html>".utf8)
        let headers: HTTPHeaders = ["Content-Type": "text/html"]
        let error = HTTPStatusError(status: 502, headers: headers, body: html)
        let failure = try #require(throws: DecodingFailure.self) { try error.decodedBody(as: Problem.self) }
        #expect(failure.contentType == "text/html")
        let viaResponse = Future(value: Endpoint.Response(value: html, status: 502, headers: headers)).decoded(
            as: Problem.self, using: JSONDecoder())
        let responseFailure = try #require(viaResponse.result?.failure as? DecodingFailure)
        #expect(failure.description == responseFailure.description)
        #expect(failure.description.contains("Content-Type: text/html; body: <html><h1>Bad gateway</h1></html>"))
    }

    @Test func theDescriptionShowsTheURLAsTheOneRedactionDoes() {
        let withSecrets = URL(string: "https://ann:pw@shop.test/products/7?token=s3cr3t&page=2")!
        let error = HTTPStatusError(status: 404, url: withSecrets)
        #expect(error.description.contains(" for \(Redaction.default.redact(withSecrets))."))
        #expect(error.description.contains("https://<redacted>:<redacted>@shop.test/products/7?token=<redacted>&page=2"))
        #expect(!error.description.contains("s3cr3t") && !error.description.contains("pw@"))
    }

    @Test func localizedDescriptionSaysTheSameWordsAsDescription() {
        let error = HTTPStatusError(status: 404, body: Data("missing".utf8), url: url)
        #expect((error as any Error).localizedDescription == error.description)
        #expect(String(reflecting: error) == error.description)
    }

    @Test func dumpShowsTheHeadersRedactedAndNoSecretOfTheBody() {
        let body = Data(#"{"error":"invalid_grant","refresh_token":"r3fresh-s3cr3t"}"#.utf8)
        let headers: HTTPHeaders = [
            "Set-Cookie": "session=c00kie-s3cr3t", "WWW-Authenticate": "Bearer", "Content-Type": "application/json",
        ]
        let error = HTTPStatusError(status: 401, headers: headers, body: body, url: URL(string: "https://ann:pa55@shop.test/me?token=t0k")!)
        var dumped = ""
        dump(error, to: &dumped)
        #expect(!dumped.contains("s3cr3t"))
        #expect(!dumped.contains("pa55"))
        #expect(!dumped.contains("t0k"))
        #expect(dumped.contains("Set-Cookie: <redacted>"))
        #expect(dumped.contains("Content-Type: application/json"))
        #expect(dumped.contains("status: 401"))
    }

    @Test func theDecodedBodysFailureNamesTheURLRedacted() throws {
        let error = HTTPStatusError(status: 400, body: Data("{}".utf8), url: url)
        struct Problem: Decodable { let message: String }
        #expect(throws: DecodingFailure.self) { try error.decodedBody(as: Problem.self) }
        do {
            _ = try error.decodedBody(as: Problem.self)
        } catch let failure as DecodingFailure {
            #expect(failure.url == "https://shop.test/products/7?token=<redacted>")
            #expect(failure.description.hasPrefix("Could not decode Problem from https://shop.test/products/7?token=<redacted>: "))
        }
    }

    @Test func aStatusErrorBuiltByHandSaysNothingOfAttemptsOrRedirects() {
        let error = HTTPStatusError(status: 401, url: url)
        #expect(error.attempts == 1)
        #expect(error.credentialsDroppedByRedirect == nil)
    }
}
