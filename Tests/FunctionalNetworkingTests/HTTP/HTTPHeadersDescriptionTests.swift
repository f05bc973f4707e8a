import FunctionalNetworking
import Testing

@Suite("HTTPHeaders description")
struct HTTPHeadersDescriptionTests {
    @Test func showsEveryNameInOrderAndHidesTheValuesOfSecretHeaders() {
        let headers = HTTPHeaders([("Accept", "*/*"), ("Authorization", "Bearer s3cr3t"), ("Cookie", "a=1"), ("Accept", "text/html")])
        #expect(headers.description == "[Accept: */*, Authorization: <redacted>, Cookie: <redacted>, Accept: text/html]")
        #expect(
            String(reflecting: headers) == "HTTPHeaders([Accept: */*, Authorization: <redacted>, Cookie: <redacted>, Accept: text/html])")
    }

    @Test func dumpShowsOneLinePerFieldWithSecretValuesHidden() {
        let headers: HTTPHeaders = ["X-API-Key": "s3cr3t", "Accept": "*/*"]
        var text = ""
        dump(headers, to: &text)
        #expect(text == "▿ 2 key/value pairs\n  - X-API-Key: \"<redacted>\"\n  - Accept: \"*/*\"\n")
    }
}
