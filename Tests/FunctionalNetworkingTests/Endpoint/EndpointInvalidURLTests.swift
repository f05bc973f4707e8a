import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint invalid URLs")
struct EndpointInvalidURLTests {
    static let invalidHosts = [
        "", " ", "exa mple.com", "example.com/x", "user@example.com", "example.com:80", "café.com",
        "ex#ample.com", "ex?ample.com", "[::1", "::1]", "[]", "[example.com]", "a\r\nb", "\u{0}",
    ]

    static let invalidSchemes = ["", "ht tp", "1http", "https://", "http:", "h\u{0}", "-http", "héttp", "+"]

    static let invalidPorts = [-1, 65_536, Int.max, Int.min]

    static let baseURLsWithoutSchemeOrHost = [
        "/v1", "api.example.com/v1", "file:///tmp", "mailto:someone@example.com", "https:/v1",
        "urn:isbn:0451450523", "//api.example.com/v1",
    ]

    @Test(arguments: invalidHosts)
    func hasNoURLForAnInvalidHost(host: String) {
        expectInvalid(Endpoint(destination: .server(scheme: "https", host: host, port: nil), path: "/x"))
    }

    @Test(arguments: invalidSchemes)
    func hasNoURLForAnInvalidScheme(scheme: String) {
        expectInvalid(Endpoint(destination: .server(scheme: scheme, host: "example.com", port: nil), path: "/x"))
    }

    @Test(arguments: invalidPorts)
    func hasNoURLForAPortOutsideTheRange(port: Int) {
        expectInvalid(Endpoint(destination: .server(scheme: "https", host: "example.com", port: port), path: "/x"))
    }

    @Test(arguments: baseURLsWithoutSchemeOrHost)
    func hasNoURLForABaseURLWithoutSchemeOrHost(base: String) throws {
        let url = try #require(URL(string: base))
        expectInvalid(Endpoint(baseURL: url, path: "/x"))
    }

    @Test func hasNoURLForABaseURLWithAnEmptyOrInvalidHostOrPortWhenFoundationParsesOne() {
        for text in ["https://", "https:///v1", "https://:80/v1", "https://h:70000/x", "https://exa%20mple.com/x"] {
            guard let url = URL(string: text) else { continue }
            expectInvalid(Endpoint(baseURL: url, path: "/x"))
        }
    }

    @Test func neverTrapsOnGeneratedDestinations() {
        var generator = EndpointSeededGenerator(seed: 0xBAD_5EED)
        for _ in 0..<500 {
            let endpoint = Endpoint(
                destination: .server(
                    scheme: EndpointRandomText.string(using: &generator, maxLength: 4),
                    host: EndpointRandomText.string(using: &generator, maxLength: 8), port: Int.random(in: -10...70_000, using: &generator)),
                path: EndpointRandomText.string(using: &generator))
            if endpoint.url == nil {
                #expect(throws: Endpoint.Error.invalidURL) { try endpoint.urlRequest() }
            }
        }
    }

    private func expectInvalid(_ endpoint: Endpoint, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(endpoint.url == nil, sourceLocation: sourceLocation)
        #expect(throws: Endpoint.Error.invalidURL, sourceLocation: sourceLocation) { try endpoint.urlRequest() }
    }
}
