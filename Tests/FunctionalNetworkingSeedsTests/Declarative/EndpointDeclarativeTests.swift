import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import Testing

@Suite("Endpoint declarative modifiers")
struct EndpointDeclarativeTests {
    private let base = Endpoint(
        method: .post, baseURL: URL(string: "https://lab.example.com")!, path: "/readings",
        queryItems: [URLQueryItem(name: "v", value: "1")], headers: ["Accept": "text/plain", "X-Keep": "kept"])

    @Test func headersReplaceFieldsOfTheNamesWrittenAndKeepTheOthers() {
        let endpoint = base.headers {
            Header.accept("application/json")
            Header("X-New", "1")
        }
        #expect(endpoint.headers == ["accept": "application/json", "X-Keep": "kept", "X-New": "1"])
        #expect(endpoint.method == .post)
        #expect(endpoint.path == "/readings")
    }

    @Test func queryItemsAreAddedAfterTheCurrentOnes() {
        let endpoint = base.queryItems {
            Query("v", 2)
            Query("unit", "C")
        }
        #expect(endpoint.queryItems.map(\.name) == ["v", "v", "unit"])
        #expect(endpoint.url?.query == "v=1&v=2&unit=C")
    }

    @Test func aContentTypeAlreadySetIsKept() throws {
        let endpoint =
            try base
            .headers { Header.contentType("application/vnd.lab+json") }
            .body { Key("sensor", "t1") }
        #expect(endpoint.headers.values(for: "Content-Type") == ["application/vnd.lab+json"])
    }

    @Test func jsonBodyFromTheBuilderReplacesTheCurrentBody() throws {
        let endpoint = try base.with(body: Data("old".utf8)).body {
            Key("sensor", "t2")
            Key("calibration") {
                Key("offset", -0.25)
            }
        }
        #expect(try JSONValue.decoding(endpoint.body) == ["sensor": "t2", "calibration": ["offset": -0.25]])
        #expect(endpoint.headers["Content-Type"] == "application/json")
    }

    @Test func theEncoderGivenIsUsed() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let snake = try base.body(encoder: encoder) { Key("readingValue", 1) }
        #expect(try JSONValue.decoding(snake.body) == ["reading_value": 1])
    }

    @Test func anUnencodableBuilderValueThrowsTheClearError() {
        #expect {
            try base.body { Key("celsius", -Double.infinity) }
        } throws: { error in
            guard case BodyError.notEncodable(let type, let reason) = error else { return false }
            return type == "JSONBody" && reason.contains(#""celsius""#)
        }
    }
}
