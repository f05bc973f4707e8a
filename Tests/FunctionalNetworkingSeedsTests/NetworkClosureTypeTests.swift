import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("NetworkClosureType")
struct NetworkClosureTypeTests {
    @Test func aNetworkClosureIsATransportAndBack() async throws {
        let baseFunction: NetworkClosureType = URLSession.shared.transport
        let transport: Transport = baseFunction
        _ = transport  // built without running: the tests never leave 127.0.0.1

        let stub: Transport = stubTransport(data: Data("ok".utf8))
        let closure: NetworkClosureType = stub
        let request = URLRequest(url: URL(string: "https://shop.test/")!)
        #expect(try await closure(request).0 == Data("ok".utf8))
    }

    @Test func aNetworkClosureHasTheArticlesSignature() {
        let closure: NetworkClosureType = echoAuthorization
        let spelledOut: @Sendable (URLRequest) async throws -> (Data, URLResponse) = closure
        _ = spelledOut
    }
}
