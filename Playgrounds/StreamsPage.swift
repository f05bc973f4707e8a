import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Page 7: a response read while it arrives, and a Server-Sent Events feed that reconnects.
let streamsPage = Page(name: "streams", title: "Streams: an order's log line by line, a live price that reconnects") {
    let server = try ShopServer.start()
    defer { server.stop() }
    let shop = server.baseURL
    let session = NetworkSession(configuration: .ephemeral)
    // Logging writes a streamed call's end record when its stream ends, with the bytes it brought.
    let logged = LogLines()
    let transport = session.transport(with: .retry(), .logged(to: { logged.append($0.message) }, level: .info))
    let feeds = session.transport(with: .retry())

    // A streamed response: the call returns with the head; the lines come as the server sends
    // them, and the idle limit stops a server that falls silent.
    let started = ContinuousClock.now
    let log = Endpoint(baseURL: shop, path: "/orders/42/log")
    let response = try await stream(log, through: transport, limits: StreamLimits(idleTimeout: .seconds(10)))
    print("GET /orders/42/log → \(response.statusCode) \(response.headers["Content-Type"] ?? ""); its lines as they arrive:")
    for try await line in response.body.lines {
        print("  \(seconds(since: started)) \(line)")
    }
    // The record is written where the stream ends, on the session's queue: a moment after the
    // reader has seen the end.
    await logged.printAll(expecting: 1)

    // Server-Sent Events that outlive their connection, chained into a typed function as a
    // loader is: an id, its endpoint, its events, each decoded as a Product.
    let livePrice: @Sendable (Product.ID) -> AsyncThrowingStream<Product, any Error> = chain(
        chain({ @Sendable (id: Product.ID) in Endpoint(baseURL: shop, path: "/prices/\(id)/live") }, to: eventStreaming(from: feeds)),
        to: AsyncThrowingStream<ServerSentEvent, any Error>.decoded
    )
    print("the live price of product 7 (the server cuts its first connection in the middle of an event; its retry: says 300 ms):")
    for try await product in livePrice(7) {
        print("  \(product)")
    }
    print("  → the server answered 204: the feed is over")

    // The server saw one request per connection, each going on from the last event it gave.
    _ = await server.takeRequest()  // The order's log.
    var connections: [String] = []
    while let request = await server.takeRequest(timeout: .milliseconds(100)) {
        connections.append(request.header("Last-Event-ID").map { "Last-Event-ID: \($0)" } ?? "no Last-Event-ID")
    }
    print("  → \(connections.count) connections: \(connections.joined(separator: ", "))")
}

/// The time since `start`, in tenths of a second, as `+0.4 s`.
private func seconds(since start: ContinuousClock.Instant) -> String {
    let tenths = Int((start.duration(to: .now) / .milliseconds(100)).rounded())
    return "+\(tenths / 10).\(tenths % 10) s"
}

/// The records a logging composer wrote, kept until the page prints them.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
private final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    /// Prints the records written, once `count` have been (or after a second), and forgets them.
    func printAll(expecting count: Int) async {
        let deadline = ContinuousClock.now + .seconds(1)
        while lock.withLock({ lines.count }) < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let written = lock.withLock {
            defer { lines = [] }
            return lines
        }
        for line in written {
            print("  log: \(line)")
        }
    }
}
