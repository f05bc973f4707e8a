import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint declarative modifiers")
struct EndpointDeclarativeTests {
    struct Reading: Encodable {
        let sensor: String
        let celsius: Double
    }

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

    @Test func jsonBodyFromAnEncodableValueIsMarkedAsJSON() throws {
        let endpoint = try base.body(json: Reading(sensor: "t1", celsius: 21.5))
        #expect(try JSONValue.decoding(endpoint.body) == ["sensor": "t1", "celsius": 21.5])
        #expect(endpoint.headers["Content-Type"] == "application/json")
        let request = try endpoint.urlRequest()
        #expect(request.httpBody == endpoint.body)
        #expect(request.value(forHTTPHeaderField: "content-type") == "application/json")
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
        let endpoint = try base.body(json: ["readingValue": 1], encoder: encoder)
        #expect(try JSONValue.decoding(endpoint.body) == ["readingValue": 1])
        let snake = try base.body(encoder: encoder) { Key("readingValue", 1) }
        #expect(try JSONValue.decoding(snake.body) == ["reading_value": 1])
    }

    @Test func anUnencodableValueThrowsTheClearErrorWithTheValuesTypeAndReason() {
        let error = #expect(throws: DeclarativeError.self) {
            try base.body(json: Reading(sensor: "t1", celsius: .nan))
        }
        guard case .bodyNotEncodable(let type, let reason)? = error else {
            Issue.record("expected bodyNotEncodable, got \(String(describing: error))")
            return
        }
        #expect(type == "Reading")
        #expect(reason.contains("Double"))
        #expect(reason.contains(#""celsius""#))
        #expect(error?.description.hasPrefix("The request body of type Reading cannot be encoded as JSON:") == true)
    }

    @Test func anUnencodableBuilderValueThrowsTheClearError() {
        #expect {
            try base.body { Key("celsius", -Double.infinity) }
        } throws: { error in
            guard case DeclarativeError.bodyNotEncodable(let type, let reason) = error else { return false }
            return type == "JSONBody" && reason.contains(#""celsius""#)
        }
    }
}
