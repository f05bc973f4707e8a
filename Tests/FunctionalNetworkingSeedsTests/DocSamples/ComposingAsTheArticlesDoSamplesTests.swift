import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworkingSeeds.docc (the root page and ComposingAsTheArticlesDo.md),
// as the articles show them, against LoopbackServers on 127.0.0.1. The article's `TokenStore`
// is the one that Support/TokenStore.swift defines.

fileprivate struct RootComposer {
    let tokenStore: TokenStore
    let session: URLSession

    var baseFunction: NetworkClosureType {
        session.transport
    }

    var authComposer: AuthComposer {
        AuthComposer(bearerToken: { [tokenStore] in tokenStore.token }, baseFunction: baseFunction)
    }

    var composableNetworking: ComposableNetworking {
        ComposableNetworking(
            bearerToken: { [tokenStore] in tokenStore.token },
            authComposer: authComposer,
            baseFunction: baseFunction
        )
    }

    var composition: NetworkClosureType {
        composableNetworking.composition
    }
}

@Suite("Samples: Composing networking from small functions")
struct ComposingAsTheArticlesDoSamplesTests {
    @Test func theSeedsComposersAuthoriseWhileATokenIsStored() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let tokens = TokenStore()
        tokens.token = "abc"
        let request = URLRequest(url: server.url(for: "/me"))

        let signedIn = try await withTimeLimit {
            let auth = AuthComposer(bearerToken: { tokens.token }, baseFunction: URLSession.shared.transport)
            let root = ComposableNetworking(
                bearerToken: { tokens.token },
                authComposer: auth,
                baseFunction: URLSession.shared.transport
            )
            let (data, _) = try await root.composition(request)
            return data
        }

        #expect(String(decoding: signedIn, as: UTF8.self) == "Bearer abc")
        let auth = AuthComposer(bearerToken: { tokens.token }, baseFunction: makeTestSession().transport)
        let root = ComposableNetworking(bearerToken: { tokens.token }, authComposer: auth, baseFunction: makeTestSession().transport)
        tokens.token = nil
        let signedOut = try await withTimeLimit { try await root.composition(request).0 }
        #expect(String(decoding: signedOut, as: UTF8.self) == "-")
        await #expect(throws: ComposableNetworkingError.noBearerToken) {
            try await auth.composition(request)
        }
    }

    @Test func anAuthComposerStacksLikeTheOtherComposers() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let tokens = TokenStore()
        let request = URLRequest(url: server.url(for: "/me"))

        let signedInOnly = NetworkSession.shared.transport(
            with: Composer(at: .authentication) { next in
                AuthComposer(bearerToken: { tokens.token }, baseFunction: next).composition
            })

        await #expect(throws: ComposableNetworkingError.noBearerToken) {
            try await signedInOnly(request)
        }
        tokens.token = "abc"
        let authorised = try await withTimeLimit { try await signedInOnly(request).0 }
        #expect(String(decoding: authorised, as: UTF8.self) == "Bearer abc")
    }

    @Test func theRootComposerAuthorisesWhileSignedInAndNotWhileSignedOut() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let account = Endpoint(baseURL: server.baseURL, path: "/account")

        let root = RootComposer(tokenStore: TokenStore(), session: URLSession.shared)
        let send = networking(from: root.composition)  // (Endpoint) -> Future<Data>

        root.tokenStore.token = "s3cr3t"  // signed in: requests carry Authorization: Bearer s3cr3t
        root.tokenStore.token = nil  // signed out: requests go as they are

        #expect(try await send(account).value(within: .seconds(30)) == Data("-".utf8))
        root.tokenStore.token = "s3cr3t"
        #expect(try await send(account).value(within: .seconds(30)) == Data("Bearer s3cr3t".utf8))
    }

    @Test func aRequestModifierComposedWithATransportAuthorises() async throws {
        let server = try makeAuthorizationEchoServer()
        defer { server.stop() }
        let request = URLRequest(url: server.url(for: "/me"))
        let token = "t0k3n"

        let data = try await withTimeLimit {
            let authorized = compose(bearerTokenModifier(token), URLSession.shared.transport)
            let (data, response) = try await authorized(request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            return data
        }

        #expect(data == Data("Bearer t0k3n".utf8))
    }
}
