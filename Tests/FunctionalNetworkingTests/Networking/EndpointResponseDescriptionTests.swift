import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint.Response description")
struct EndpointResponseDescriptionTests {
    @Test func showsTheStatusTheURLTheHeaderNamesAndTheBodySize() {
        let response = Endpoint.Response(
            value: Data("[]".utf8), status: 200,
            headers: ["Content-Type": "application/json", "Set-Cookie": "id=s3cr3t; Path=/"],
            url: URL(string: "https://shop.test/me?token=s3cr3t")
        )
        #expect(
            response.description
                == "200 https://shop.test/me?token=<redacted> [Content-Type: application/json, Set-Cookie: <redacted>] (value: 2 bytes)"
        )
    }

    @Test func aDecodedValueIsShownByItsTypeOnly() {
        struct Session: Sendable { let token: String }
        let response = Endpoint.Response(value: Session(token: "s3cr3t"), status: 201)
        #expect(response.description == "201 (no URL) (value: a value of type Session)")
        #expect(String(reflecting: response).hasPrefix("Endpoint.Response(201 (no URL)"))
    }
}
