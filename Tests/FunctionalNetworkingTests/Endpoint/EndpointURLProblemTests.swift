import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint+URLProblem")
struct EndpointURLProblemTests {
    @Test func aBadSchemeIsNamedWithTheURL() {
        let endpoint = Endpoint(destination: .server(scheme: "ht tp", host: "shop.example", port: nil), path: "/items")
        #expect(endpoint.urlProblem?.part == .scheme)
        #expect(
            describe(endpoint)
                == #"The endpoint does not make a valid absolute URL: the scheme "ht tp" is not a URL scheme, in ht tp://shop.example/items."#
        )
    }

    @Test func aSpaceInTheHostIsNamedWithTheURL() {
        let endpoint = Endpoint(destination: .server(scheme: "https", host: "shop example", port: nil), path: "/items")
        #expect(endpoint.urlProblem?.part == .host)
        #expect(describe(endpoint).contains(#"the host "shop example" is not a host name or IP address, in https://shop example/items"#))
    }

    @Test func aPortOutOfRangeIsNamedWithTheURL() {
        let endpoint = Endpoint(destination: .server(scheme: "https", host: "shop.example", port: 70_000), path: "/items")
        #expect(endpoint.urlProblem?.part == .port)
        #expect(describe(endpoint).contains("the port 70000 is outside 0...65535, in https://shop.example:70000/items"))
    }

    @Test func aBaseURLWithoutSchemeIsNamed() throws {
        let endpoint = Endpoint(baseURL: try #require(URL(string: "shop.example/v1")), path: "/items")
        #expect(endpoint.urlProblem?.part == .scheme)
        #expect(describe(endpoint).contains("the base URL has no scheme (such as https://), in shop.example/v1/items"))
    }

    @Test func threeDifferentMistakesGiveThreeDifferentSentences() {
        let endpoints = [
            Endpoint(destination: .server(scheme: "", host: "shop.example", port: nil), path: "/a"),
            Endpoint(destination: .server(scheme: "https", host: "a b", port: nil), path: "/a"),
            Endpoint(destination: .server(scheme: "https", host: "shop.example", port: 70_000), path: "/a"),
        ]
        #expect(Set(endpoints.map(describe)).count == 3)
    }

    @Test func aPasswordInTheHostIsNotShown() {
        let endpoint = Endpoint(destination: .server(scheme: "https", host: "user:hunter2@shop.example", port: nil), path: "/a")
        #expect(endpoint.urlProblem?.part == .host)
        #expect(!describe(endpoint).contains("hunter2"))
    }

    @Test func aValidEndpointHasNoProblemAndTheErrorsStillEqualTheSeedsInvalidURL() throws {
        let valid = Endpoint(destination: .server(scheme: "https", host: "shop.example", port: 443), path: "/a")
        #expect(valid.urlProblem == nil)
        let invalid = Endpoint(destination: .server(scheme: "https", host: "", port: nil), path: "/a")
        #expect(throws: Endpoint.Error.invalidURL) { try invalid.urlRequest() }
    }

    private func describe(_ endpoint: Endpoint) -> String {
        do {
            _ = try endpoint.urlRequest()
            return "valid"
        } catch {
            return error.description
        }
    }
}
