import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("ComposableNetworking")
struct ComposableNetworkingTests {
    let request = URLRequest(url: URL(string: "https://shop.test/account")!)

    @Test func composableNetworkingUsesTheBaseFunctionWhileSignedOutAndAuthorizesOnceSignedIn() async throws {
        let store = TokenStore()
        let auth = AuthComposer(bearerToken: { store.token }, baseFunction: echoAuthorization)
        let networking = ComposableNetworking(
            bearerToken: { store.token },
            authComposer: auth,
            baseFunction: echoAuthorization
        )
        let composition = networking.composition
        let signedOut = try await composition(request).0
        store.token = "fresh"
        let signedIn = try await composition(request).0
        #expect(String(decoding: signedOut, as: UTF8.self) == "none")
        #expect(String(decoding: signedIn, as: UTF8.self) == "Bearer fresh")
    }

    @Test func signingOutTakesEffectAtOnce() async throws {
        let store = TokenStore()
        store.token = "fresh"
        let auth = AuthComposer(bearerToken: { store.token }, baseFunction: echoAuthorization)
        let composition = ComposableNetworking(bearerToken: { store.token }, authComposer: auth, baseFunction: echoAuthorization)
            .composition
        #expect(try await composition(request).0 == Data("Bearer fresh".utf8))
        store.token = nil
        #expect(try await composition(request).0 == Data("none".utf8))
    }
}
