import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint round trips")
struct EndpointRoundTripTests {
    @Test func urlComponentsGiveBackGeneratedPathSegmentsAndQueryItemsExactly() throws {
        var generator = EndpointSeededGenerator(seed: 0x5EED_F00D)
        let base = URL(string: "https://api.example.com/v1/")!
        for _ in 0..<500 {
            let segments = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                EndpointRandomText.string(using: &generator)
            }
            let items = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                URLQueryItem(
                    name: EndpointRandomText.string(using: &generator, minLength: 1),
                    value: Bool.random(using: &generator) ? nil : EndpointRandomText.string(using: &generator)
                )
            }
            let endpoint = Endpoint(baseURL: base, queryItems: items).appending(pathComponents: segments)

            let url = try #require(endpoint.url, "\(segments) \(items)")
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            let encodedSegments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
            #expect(encodedSegments.prefix(2) == ["", "v1"])
            let decoded = encodedSegments.dropFirst(2).map { $0.removingPercentEncoding }
            #expect(decoded.map { $0.map { Array($0.utf8) } } == segments.map { Array($0.utf8) })
            let decodedItems = items.isEmpty ? [] : (components.queryItems ?? [])
            #expect(decodedItems.map { Array($0.name.utf8) } == items.map { Array($0.name.utf8) })
            #expect(decodedItems.map { $0.value.map { Array($0.utf8) } } == items.map { $0.value.map { Array($0.utf8) } })
            #expect(url.host == "api.example.com")
            #expect(url.fragment == nil)
        }
    }

    @Test func urlComponentsGiveBackEmptySegmentsAndEmptyValues() throws {
        let endpoint = Endpoint(
            destination: .server(scheme: "https", host: "example.com", port: nil),
            queryItems: [URLQueryItem(name: "e", value: ""), URLQueryItem(name: "n", value: nil)]
        ).appending(pathComponents: ["", "a", "", ""])
        let url = try #require(endpoint.url)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.percentEncodedPath == "//a//")
        #expect(components.queryItems == [URLQueryItem(name: "e", value: ""), URLQueryItem(name: "n", value: nil)])
    }
}
