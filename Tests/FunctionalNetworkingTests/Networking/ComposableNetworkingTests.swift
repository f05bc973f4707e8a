import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A token store the test owns, read through a getter closure (SwiftUI's `@Binding` on Linux).
final class TokenStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    var token: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@Suite("ComposableNetworking (seed 000)")
struct ComposableNetworkingTests {
    /// A base function that echoes the Authorization header it received.
    let echoAuthorization: NetworkClosureType = stubTransport { request in
        (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
    }
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

    @Test func noBearerTokenSaysWhatToDo() {
        #expect(ComposableNetworkingError.noBearerToken.description.contains("sign in"))
    }

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
}

@Suite("The articles' compositions as Composer values")
struct ArticleCompositionComposerTests {
    let echoAuthorization: NetworkClosureType = stubTransport { request in
        (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
    }
    let request = URLRequest(url: URL(string: "https://shop.test/account")!)

    @Test func anAuthComposerWrappedInAComposerAuthorisesEveryRequest() async throws {
        let store = TokenStore()
        let transport = compose(
            echoAuthorization,
            with: Composer(at: .authentication) { next in AuthComposer(bearerToken: { store.token }, baseFunction: next).composition })
        await #expect(throws: ComposableNetworkingError.noBearerToken) { _ = try await transport(request) }
        store.token = "abc"
        #expect(try await transport(request).0 == Data("Bearer abc".utf8))
    }
}
