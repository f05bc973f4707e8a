import Foundation
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
}
