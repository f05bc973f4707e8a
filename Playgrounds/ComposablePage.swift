import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Page 3: composable networking as the articles write it, and a RootComposer.
let composablePage = Page(name: "composable", title: "ComposableNetworking and the RootComposer") {
    let server = try ShopServer.start()
    defer { server.stop() }

    // The root lists every dependency in one place; everything else is derived from it.
    let root = RootComposer(tokenStore: TokenStore(), session: URLSession(configuration: .ephemeral))
    let send = networking(from: root.composition)  // (Endpoint) -> Future<Data>
    let account = Endpoint(baseURL: server.baseURL, path: "/account")

    do {
        _ = try await send(account).value
    } catch let error as HTTPStatusError {
        print("signed out, /account says:", error.status, String(decoding: error.body, as: UTF8.self))
    }

    let login = Endpoint(method: .post, baseURL: server.baseURL, path: "/login").with(body: Data(#"{"user":"ada"}"#.utf8))
    let token = try await send(login).decoded(as: Login.self).value.token
    root.tokenStore.token = token
    print("signed in; the token is stored at the root")

    let details: Account = try await send(account).decoded().value
    print("signed in, /account says: \(details.name) has \(details.orders) orders")
}

/// The app's one piece of networking state: the bearer token (a SwiftUI app keeps it in
/// `@State` and hands the composers a getter).
final class TokenStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    var token: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A RootComposer: every root dependency listed once, the composition derived from them.
struct RootComposer {
    /// State, owned at the root.
    let tokenStore: TokenStore
    /// The platform's networking.
    let session: URLSession

    /// The base function: `URLSession.data(for:)` as a value.
    var baseFunction: NetworkClosureType { session.transport }

    /// Authorises with the stored token.
    var authComposer: AuthComposer {
        let tokenStore = tokenStore
        return AuthComposer(bearerToken: { tokenStore.token }, baseFunction: baseFunction)
    }

    /// Authorised while signed in, plain while signed out.
    var composableNetworking: ComposableNetworking {
        let tokenStore = tokenStore
        return ComposableNetworking(
            bearerToken: { tokenStore.token },
            authComposer: authComposer,
            baseFunction: baseFunction
        )
    }

    /// What the app sends requests with.
    var composition: NetworkClosureType {
        composableNetworking.composition
    }
}
