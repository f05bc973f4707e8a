import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworkingSeeds.docc/DeclarativeRequests.md, as the article shows
// them, against a LoopbackServer on 127.0.0.1 that plays the article's `api`.

@Suite("Samples: Declarative requests")
struct DeclarativeRequestsSamplesTests {
    struct Review: Decodable, Sendable {
        let id: Int
        let rating: Int
    }

    @Test func aServiceAndItsBuildersSendTheRequestWritten() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":12,"rating":5}"#, status: 201) }
        defer { server.stop() }
        let api = server.url(for: "/v1")
        let token: String? = "t0k3n"
        let category: String? = nil

        let review = try await withTimeLimit { () async throws -> Review in
            let shop = Service(baseURL: api)
                .headers {
                    Header.accept("application/json")
                }

            let endpoint = try Endpoint.post("products", 7, "reviews", from: shop)
                .headers {
                    if let token {
                        Header.authorization(bearer: token)
                    }
                }
                .queryItems {
                    Query("notify", true)
                    Query("category", category)  // left out when nil
                }
                .body {
                    Key("rating", 5)
                    Key("author") {
                        Key("name", "Ada")
                    }
                }

            let review: Review = try await shop.networking(using: URLSession.shared.transport)(endpoint).decoded().value
            return review
        }

        #expect(review.id == 12)
        let request = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(request.method == "POST")
        #expect(request.path == "/v1/products/7/reviews")
        #expect(request.query == "notify=true")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("Authorization") == "Bearer t0k3n")
        #expect(request.header("Content-Type") == "application/json")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(body["rating"] as? Int == 5)
        #expect((body["author"] as? [String: Any])?["name"] as? String == "Ada")
    }

    @Test func responseIsTheCoresEndpointResponse() {
        func afterEach<B>(_ response: Response<B>) -> Response<B> where B: Codable {
            response
        }
        let response: Endpoint.Response<Int> = afterEach(Endpoint.Response(value: 7, status: 200))
        #expect(response.status == 200)
    }
}
