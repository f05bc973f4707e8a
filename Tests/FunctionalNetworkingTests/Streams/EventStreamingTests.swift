import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private struct TickerPrice: Decodable, Sendable, Equatable {
    let price: Int
}

/// Reads events from `sequence` in a task of its own, so that a test can move a clock meanwhile.
private func collect(
    _ count: Int, from sequence: AsyncThrowingStream<ServerSentEvent, any Error>
) -> Task<[ServerSentEvent], any Error> {
    Task {
        var events: [ServerSentEvent] = []
        for try await event in sequence {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }
}

@Suite("eventStreaming(from:reconnection:limits:clock:): Server-Sent Events with reconnection")
struct EventStreamingTests {
    @Test("Events of every field arrive as the server sends them, asked for as text/event-stream")
    func eventsOfEveryField() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .eventStream([
                .comment("welcome"),
                .event(ServerSentEvent(event: "update", data: "line one\nline two", id: "1")),
                .event(ServerSentEvent(data: "plain", retry: .milliseconds(1500))),
            ]))
        server.enqueue(LoopbackServer.Response(status: 204))
        let events = eventStreaming(from: makeTestNetworkSession().transport, reconnection: .never)

        var received: [ServerSentEvent] = []
        for try await event in events(Endpoint(baseURL: server.url(for: "/feed"))) {
            received.append(event)
        }

        #expect(
            received == [
                ServerSentEvent(event: "update", data: "line one\nline two", id: "1"),
                ServerSentEvent(data: "plain", id: "1", retry: .milliseconds(1500)),
            ])
        let request = try #require(await server.takeRequest())
        #expect(request.header("Accept") == "text/event-stream")
        #expect(request.header("Cache-Control") == "no-cache")
        #expect(request.header("Last-Event-ID") == nil)
    }

    @Test("A dropped connection is reopened after the server's retry: time, with Last-Event-ID; an event cut short is dropped")
    func reconnectsWithLastEventID() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .eventStream([
                .event(ServerSentEvent(data: "one", id: "1", retry: .seconds(7))),
                .eventCutShort(ServerSentEvent(data: "lost", id: "2")),
            ]))
        server.enqueue(.events([ServerSentEvent(data: "two", id: "2")]))
        let clock = TestClock()
        let events = eventStreaming(from: makeTestNetworkSession().transport, clock: clock)

        let reading = collect(2, from: events(Endpoint(baseURL: server.url(for: "/feed"))))
        try await clock.waitForSleepers(count: 1, timeout: .seconds(60))
        #expect(server.requestCount == 1)
        clock.advance(by: .seconds(6))
        #expect(server.requestCount == 1)
        clock.advance(by: .seconds(1))
        let received = try await reading.value

        #expect(received.map(\.data) == ["one", "two"])
        _ = await server.takeRequest()
        let second = try #require(await server.takeRequest())
        #expect(second.header("Last-Event-ID") == "1")
    }

    @Test("A 204 ends the sequence, and nothing reconnects")
    func noContentEnds() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(LoopbackServer.Response(status: 204))
        let events = eventStreaming(from: makeTestNetworkSession().transport)

        var count = 0
        for try await _ in events(Endpoint(baseURL: server.url(for: "/feed"))) { count += 1 }

        #expect(count == 0)
        #expect(server.requestCount == 1)
    }

    @Test("An answer that is not text/event-stream fails with StreamError.notEventStream, not retried")
    func notAnEventStream() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.json("{}"))
        let events = eventStreaming(from: makeTestNetworkSession().transport)

        await #expect {
            for try await _ in events(Endpoint(baseURL: server.url(for: "/feed"))) {}
        } throws: { error in
            if case .notEventStream(let type?, _) = error as? StreamError { type.hasPrefix("application/json") } else { false }
        }
        #expect(server.requestCount == 1)
    }

    @Test("A status error is not retried by the event stream")
    func statusIsNotRetried() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(LoopbackServer.Response(status: 500))
        let events = eventStreaming(from: makeTestNetworkSession().transport)

        await #expect(throws: HTTPStatusError.self) {
            for try await _ in events(Endpoint(baseURL: server.url(for: "/feed"))) {}
        }
        #expect(server.requestCount == 1)
    }

    @Test("Cancelling the reading task while it waits for the next event closes the connection, and nothing reconnects")
    func cancellationWhileWaiting() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.eventStream([.event(ServerSentEvent(data: "one")), .pause(.seconds(30))]))
        let events = eventStreaming(from: makeTestNetworkSession().transport)
        let first = Promise<Void>()

        let reading = Task {
            for try await _ in events(Endpoint(baseURL: server.url(for: "/feed"))) {
                first.resolve(with: ())
            }
        }
        try await first.value
        reading.cancel()

        await #expect(throws: CancellationError.self) { try await reading.value }
        #expect(server.requestCount == 1)
    }

    @Test("Each event's data decodes into the type the context asks for")
    func decodedEvents() async throws {
        let stream = AsyncThrowingStream<ServerSentEvent, any Error> { continuation in
            continuation.yield(ServerSentEvent(data: "{\"price\": 41}"))
            continuation.yield(ServerSentEvent(data: "{\"price\": 42}"))
            continuation.finish()
        }

        var prices: [TickerPrice] = []
        for try await price in stream.decoded(as: TickerPrice.self) { prices.append(price) }

        #expect(prices == [TickerPrice(price: 41), TickerPrice(price: 42)])
    }

    @Test("A typed event loader chains like a loader: endpoint, events, decoded")
    func chainedLoader() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.events([ServerSentEvent(data: "{\"price\": 42}")]))
        server.enqueue(LoopbackServer.Response(status: 204))
        let endpoint: @Sendable (Int) -> Endpoint = { id in Endpoint(baseURL: server.url(for: "/prices/\(id)")) }

        let prices: @Sendable (Int) -> AsyncThrowingStream<TickerPrice, any Error> =
            chain(
                chain(endpoint, to: eventStreaming(from: makeTestNetworkSession().transport)),
                to: AsyncThrowingStream<ServerSentEvent, any Error>.decoded)
        var received: [TickerPrice] = []
        for try await price in prices(7) { received.append(price) }

        #expect(received == [TickerPrice(price: 42)])
        #expect(await server.takeRequest()?.path == "/prices/7")
    }
}
