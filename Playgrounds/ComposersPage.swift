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
    // Name the parts, in any order: each composer knows its place, and the stack is built as
    // numbered → logged → metrics → validatingStatus → retry → authenticated → cached →
    // deduplicated → throttled → the session (the reasons are in Composer's documentation).
    let session = NetworkSession(configuration: .ephemeral)
    let transport = session.transport(
        with: .authenticated(by: auth),
        .cached(heuristicFreshness: .seconds(60)),  // the shop does not say how long answers are fresh
        .deduplicated(),
        .throttled(maxConcurrent: 4),
        .retry(RetryPolicy(backoff: .immediate)),
        .validatingStatus(),
        .logged(to: { record in print("  log:", record.message) }, level: .info),
        .metrics(into: metrics),
        .numbered()
    )
    let send = networking(from: transport)
    let shop = server.baseURL

    // This page runs on the real clock (the shop's Retry-After is 0 s, so nothing waits).
    print("an authenticated request (the token never reaches the log):")
    let account: Account = try await send(Endpoint(baseURL: shop, path: "/account")).decoded().value
    print("  → \(account.name), \(account.orders) orders")
    let accountCalls = server.requestCount

    print("a busy endpoint, retried after its Retry-After:")
    let deals: [Product] = try await send(Endpoint(baseURL: shop, path: "/deals")).decoded().value
    let dealsCalls = server.requestCount - accountCalls
    print("  → \(deals): one request for the stack, \(dealsCalls) for the server (a 503, then the retry)")

    print("ten identical requests at once share one call (de-duplicated); an eleventh comes from the cache")
    let burst = try await Future.all((0..<10).map { _ in send(Endpoint(baseURL: shop, path: "/products/7")) }).value
    let eleventh = try await send(Endpoint(baseURL: shop, path: "/products/7")).value
    let productCalls = server.requestCount - accountCalls - dealsCalls
    let stackRequests = 1 + 1 + burst.count + 1
    print("  → \(burst.count + 1) answers (\(eleventh.count) bytes each), \(productCalls) request to the server for them")
    print(
        "in all: the stack sent \(stackRequests) requests (1 + 1 + \(burst.count) + 1, one log line each), "
            + "the server saw \(server.requestCount) (\(accountCalls) + \(dealsCalls) + \(productCalls))"
    )

    print("a cURL command for a request, redacted:")
    var request = URLRequest(url: server.url(for: "/account"))
    request.setValue("Bearer \(ShopServer.token)", forHTTPHeaderField: "Authorization")
    print("  " + request.curlCommand())

    print("\nmetrics for this page:\n\(metrics.summary)")
}
