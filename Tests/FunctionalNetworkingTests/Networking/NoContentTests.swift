import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("NoContent")
struct NoContentTests {
    @Test(arguments: [204, 205])
    func aNoContentStatusDecodesIntoNoContentAndIntoAnOptional(status: Int) async throws {
        let server = try LoopbackServer { _ in .status(status) }
        defer { server.stop() }
        let send = networking(from: makeTestSession().transport)
        let endpoint = Endpoint(method: .delete, baseURL: server.baseURL, path: "/items/7")
        let empty: Future<NoContent> = send(endpoint).decoded()
        #expect(try await empty.value(within: .seconds(30)) == NoContent())
        let product: Future<Product?> = send(endpoint).decoded()
        #expect(try await product.value(within: .seconds(30)) == nil)
    }

    @Test func aHEADDecodesIntoNoContentWithItsHeadersKept() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":7,"name":"iPad Pro"}"#, headers: [.init("ETag", "\"v7\"")]) }
        defer { server.stop() }
        let send = responseNetworking(from: makeTestSession().transport)
        let head: Future<Endpoint.Response<NoContent>> = send(Endpoint(method: .head, baseURL: server.baseURL, path: "/items/7")).decoded()
        let response = try await head.value(within: .seconds(30))
        #expect(response.value == NoContent())
        #expect(response.headers["ETag"] == "\"v7\"")
    }

    @Test func anOptionalStillDecodesABodyThatIsThere() throws {
        let product: Future<Product?> = Future(value: Data(#"{"id":7,"name":"iPad Pro"}"#.utf8)).decoded()
        #expect(try product.result?.get() == Product(id: 7, name: "iPad Pro"))
    }

    @Test func noContentIgnoresWhateverBodyThereIs() throws {
        let empty: Future<NoContent> = Future(value: Data(#"["anything", 1]"#.utf8)).decoded()
        #expect(try empty.result?.get() == NoContent())
    }

    @Test func anEmptyBodyStillFailsForAnotherTypeAndSaysWhatToDecodeInstead() throws {
        let product: Future<Product> = Future(value: Data()).decoded()
        let failure = try #require(product.result?.failure as? DecodingFailure)
        #expect(failure.description.contains("the body is empty (decode into NoContent or an optional to accept that)"))
    }
}
