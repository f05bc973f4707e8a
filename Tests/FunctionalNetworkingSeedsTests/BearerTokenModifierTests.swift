import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("bearerTokenModifier")
struct BearerTokenModifierTests {
    let request = URLRequest(url: URL(string: "https://shop.test/account")!)

    @Test func bearerTokenModifierComposedWithATransportAuthorizes() async throws {
        let authorized = compose(bearerTokenModifier("abc"), echoAuthorization)
        let (data, _) = try await authorized(request)
        #expect(String(decoding: data, as: UTF8.self) == "Bearer abc")
    }

    @Test func bearerTokenModifierLeavesTheOriginalRequestAlone() {
        let modified = bearerTokenModifier("abc")(request)
        #expect(modified.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func bearerTokenModifierReplacesAnEarlierAuthorization() {
        var request = request
        request.setValue("Basic dXNlcjpwYXNz", forHTTPHeaderField: "Authorization")
        #expect(bearerTokenModifier("abc")(request).value(forHTTPHeaderField: "Authorization") == "Bearer abc")
    }

    @Test func bearerTokenModifierMakesAComposer() async throws {
        let transport = NetworkSession(sending: echoAuthorization).transport(with: .modifyingRequest(bearerTokenModifier("abc")))
        #expect(try await transport(request).0 == Data("Bearer abc".utf8))
    }
}
