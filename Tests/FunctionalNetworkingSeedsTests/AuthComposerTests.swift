import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("AuthComposer")
struct AuthComposerTests {
    let request = URLRequest(url: URL(string: "https://shop.test/account")!)

    @Test func authComposerAuthorizesWithTheCurrentToken() async throws {
        let store = TokenStore()
        store.token = "t0k3n"
        let auth = AuthComposer(
            bearerToken: { store.token },
            baseFunction: echoAuthorization,
            authorizeRequest: AuthComposer.bearerAuthorization
        )
        let (data, _) = try await auth.composition(request)
        #expect(String(decoding: data, as: UTF8.self) == "Bearer t0k3n")
    }

    @Test func authComposerThrowsNoBearerTokenWhenSignedOut() async {
        let auth = AuthComposer(bearerToken: { nil }, baseFunction: echoAuthorization)
        await #expect(throws: ComposableNetworkingError.noBearerToken) {
            _ = try await auth.composition(request)
        }
    }

    @Test func authComposerReadsTheTokenForEveryRequest() async throws {
        let store = TokenStore()
        store.token = "first"
        let composition = AuthComposer(bearerToken: { store.token }, baseFunction: echoAuthorization).composition
        let first = try await composition(request).0
        store.token = "second"
        let second = try await composition(request).0
        #expect(first == Data("Bearer first".utf8))
        #expect(second == Data("Bearer second".utf8))
    }

    @Test func aCustomAuthorizeRequestPutsTheTokenWhereItSays() async throws {
        let auth = AuthComposer(
            bearerToken: { "k3y" },
            baseFunction: echoAuthorization,
            authorizeRequest: { request, token in
                var request = request
                request.setValue("Token \(token)", forHTTPHeaderField: "Authorization")
                return request
            })
        #expect(try await auth.composition(request).0 == Data("Token k3y".utf8))
    }

    @Test func anAuthComposerWrappedInAComposerAuthorisesEveryRequest() async throws {
        let store = TokenStore()
        let transport = NetworkSession(sending: echoAuthorization).transport(
            with: Composer(at: .authentication) { next in AuthComposer(bearerToken: { store.token }, baseFunction: next).composition })
        await #expect(throws: ComposableNetworkingError.noBearerToken) { _ = try await transport(request) }
        store.token = "abc"
        #expect(try await transport(request).0 == Data("Bearer abc".utf8))
    }
}
