import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Page 4: a stack of composers, its log lines (secrets redacted) and its metrics.
let composersPage = Page(name: "composers", title: "A composer stack: logs, auth, retry, cache, dedupe, throttle, metrics") {
    let server = try ShopServer.start()
    defer { server.stop() }

    let store = CredentialStore(.bearer(ShopServer.token))
    let auth = Authenticator(store: store, allowedOrigins: [Origin(url: server.baseURL)!])
    let metrics = MetricsRecorder()
    // The first composer sees each request first and its response last.
    let transport = URLSession.redirectGuarded(configuration: .ephemeral).transport(
        with: .numbered(),
        .logged(to: { record in print("  log:", record.message) }, level: .info),
        .metrics(into: metrics),
        .authenticated(by: auth),
        .retry(RetryPolicy(backoff: .immediate)),
        .cached(timeToLive: .seconds(60)),
        .deduplicated(),
        .throttled(maxConcurrent: 4),
        .validatingStatus()
    )
    let send = networking(from: transport)
    let shop = server.baseURL

    print("an authenticated request (the token never reaches the log):")
    let account: Account = try await send(Endpoint(path: "/account", baseURL: shop)).decoded().value
    print("  → \(account.name), \(account.orders) orders")

    print("a busy endpoint, retried after its Retry-After:")
    let deals: [Product] = try await send(Endpoint(path: "/deals", baseURL: shop)).decoded().value
    print("  → \(deals)")

    print("ten identical requests at once: deduplicated, then cached")
    let products = try await Future.all((0..<10).map { _ in send(Endpoint(path: "/products/7", baseURL: shop)) }).value
    _ = try await send(Endpoint(path: "/products/7", baseURL: shop)).value
    print("  → \(products.count) answers; the server saw \(server.requestCount) requests in all so far")

    print("a cURL command for a request, redacted:")
    var request = URLRequest(url: server.url(for: "/account"))
    request.setValue("Bearer \(ShopServer.token)", forHTTPHeaderField: "Authorization")
    print("  " + request.curlCommand())

    print("\nmetrics for this page:\n\(metrics.summary)")
}
