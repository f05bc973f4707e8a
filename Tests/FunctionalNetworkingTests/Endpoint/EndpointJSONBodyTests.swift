import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint.with(jsonBody:)")
struct EndpointJSONBodyTests {
    struct Reading: Encodable {
        let sensor: String
        let celsius: Double
    }

    struct Sensor: Encodable {
        let name: String
        let readings: [Double]
    }

    struct Failing: Encodable {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "the value refuses to be encoded" }
        }

        func encode(to encoder: any Encoder) throws {
            throw Refused()
        }
    }

    private let base = Endpoint(
        method: .post, baseURL: URL(string: "https://lab.example.com")!, path: "/readings", headers: ["X-Keep": "kept"])

    @Test func theBodyIsTheValueEncodedAsJSONAndMarkedAsJSON() throws {
        let endpoint = try base.with(jsonBody: Reading(sensor: "t1", celsius: 21.5))
        let sent = try #require(endpoint.body)
        let object = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(object["sensor"] as? String == "t1")
        #expect(object["celsius"] as? Double == 21.5)
        #expect(endpoint.headers["Content-Type"] == "application/json")
        #expect(endpoint.headers["X-Keep"] == "kept")
        let request = try endpoint.urlRequest()
        #expect(request.httpBody == sent)
        #expect(request.value(forHTTPHeaderField: "content-type") == "application/json")
    }

    @Test func theBodyIsExactlyWhatTheEncoderGivenWrites() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let endpoint = try base.with(jsonBody: ["b": 2, "a": 1], encoder: encoder)
        #expect(endpoint.body == Data(#"{"a":1,"b":2}"#.utf8))
        let snake = try base.with(jsonBody: Reading(sensor: "t1", celsius: 1), encoder: encoder)
        #expect(snake.body == Data(#"{"celsius":1,"sensor":"t1"}"#.utf8))
    }

    @Test func aContentTypeAlreadySetIsKept() throws {
        let endpoint = try base.setting(header: "content-type", to: "application/vnd.lab+json")
            .with(jsonBody: Reading(sensor: "t1", celsius: 21.5))
        #expect(endpoint.headers.values(for: "Content-Type") == ["application/vnd.lab+json"])
    }

    @Test func theCurrentBodyIsReplaced() throws {
        let endpoint = try base.with(body: Data("old".utf8)).with(jsonBody: ["new": true])
        #expect(endpoint.body == Data(#"{"new":true}"#.utf8))
    }

    @Test func aValueTheEncoderRefusesNamesTheTypeThePathAndTheReasonInWords() {
        let error = #expect(throws: BodyError.self) {
            try base.with(jsonBody: Sensor(name: "t1", readings: [20, .nan]))
        }
        guard case .notEncodable(let type, let reason)? = error else {
            Issue.record("expected notEncodable, got \(String(describing: error))")
            return
        }
        #expect(type == "Sensor")
        #expect(reason.hasPrefix(#"the Double value at "readings[1]" is invalid: "#))
        #expect(
            error?.description.hasPrefix(#"The request body of type Sensor cannot be encoded as JSON: the Double value at "readings[1]""#)
                == true)
        #expect(error?.description.contains("t1") == false)
    }

    @Test func anInvalidValueAtTheTopLevelSaysSo() {
        #expect {
            _ = try base.with(jsonBody: Double.nan)
        } throws: { error in
            guard case BodyError.notEncodable(let type, let reason) = error else { return false }
            return type == "Double" && reason.hasPrefix("the Double value at the top level is invalid: ")
        }
    }

    @Test func anErrorThrownByAValuesOwnEncodeIsReportedInItsOwnWords() {
        #expect {
            try base.with(jsonBody: Failing())
        } throws: { error in
            error as? BodyError == .notEncodable(type: "Failing", reason: "the value refuses to be encoded")
        }
    }

    @Test func theDescriptionSaysWhichTypeAndWhy() {
        let error = BodyError.notEncodable(type: "Reading", reason: "the Double value at \"celsius\" is invalid.")
        #expect(
            error.description
                == "The request body of type Reading cannot be encoded as JSON: the Double value at \"celsius\" is invalid.")
    }
}
