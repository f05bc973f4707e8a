import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/Streaming.md, as the article shows them, against
// LoopbackServers on 127.0.0.1 or ready streams. `Product` and `Future.value(within:)` are the
// test target's own (Support/Shop.swift).

/// Where the article's endpoints go: the test's server, set around each sample.
private enum SampleAPI {
    @TaskLocal static var api = URL(string: "https://shop.example")!
}

extension Endpoint {
    fileprivate static func logs(of job: Int) -> Endpoint {
        Endpoint(baseURL: SampleAPI.api, path: "/jobs/\(job)/log")
    }

    fileprivate static func completions(for prompt: String) -> Endpoint {
        let body = (try? JSONEncoder().encode(["prompt": prompt, "stream": "true"])) ?? Data()
        return Endpoint(method: .post, baseURL: SampleAPI.api, path: "/completions").with(body: body)
            .setting(header: "Content-Type", to: "application/json")
    }

    fileprivate static var priceUpdates: Endpoint {
        Endpoint(baseURL: SampleAPI.api, path: "/prices/updates")
    }

    fileprivate static func prices(for id: Product.ID) -> Endpoint {
        Endpoint(baseURL: SampleAPI.api, path: "/prices/\(id)")
    }
}

private struct Token: Decodable {
    let text: String
}

private struct Price: Decodable, Sendable, Equatable {
    let amount: Int
}

@MainActor private final class PriceBoard {
    private(set) var shown: [Product.ID: Int] = [:]
    private let prices: @Sendable (Product.ID) -> AsyncThrowingStream<Price, any Error>

    init(prices: @escaping @Sendable (Product.ID) -> AsyncThrowingStream<Price, any Error>) {
        self.prices = prices
    }

    func follow(_ id: Product.ID) async throws {
        for try await price in prices(id) {
            shown[id] = price.amount
        }
    }
}

/// Waits, at most `timeout`, until `condition` holds.
private func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

@Suite("Samples: Streaming responses and Server-Sent Events")
struct StreamingSamplesTests {
    @Test func aLogStreamsLineByLineThroughTheStack() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["Compiling\n", "Linking\n", "Done\n"], every: .milliseconds(20), headers: [.init("X-Job", "7")]))
        let auth = Authenticator(store: CredentialStore(.bearer("t0ken")), allowedOrigins: [Origin(url: server.baseURL)!])
        let records = Collected<LogRecord>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0) }
        let session = makeTestNetworkSession()
        let job = 7
        let shown = Collected<String>()
        @Sendable func show(_ line: String) { shown.append(line) }

        try await withDocSampleTimeLimit {
            try await SampleAPI.$api.withValue(server.baseURL) {
                let transport = session.transport(with: .authenticated(by: auth), .retry(), .logged(to: log))
                let response = try await stream(.logs(of: job), through: transport)
                print(response.statusCode, response.headers["Content-Type"] ?? "")
                for try await line in response.body.lines {
                    show(line)
                }
            }
        }

        #expect(shown.values == ["Compiling", "Linking", "Done"])
        #expect(await server.takeRequest()?.header("Authorization") == "Bearer t0ken")
        #expect(await eventually { records.values.last?.message.hasSuffix("streamed") == true })
    }

    @Test func aModelAnswersTokenByToken() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let tokens = ["Once", " upon", " a", " time"].map { ServerSentEvent(data: #"{"text":"\#($0)"}"#) }
        // The server keeps the connection open after [DONE], with a comment every 20 ms: leaving
        // the loop is what closes it.
        let keepAlive = LoopbackServer.StreamPart.repeating(Data(": keep-alive\n".utf8), every: .milliseconds(20))
        server.enqueue(.eventStream(tokens.map { .event($0) } + [.event(ServerSentEvent(data: "[DONE]")), keepAlive]))
        let transport = makeTestNetworkSession().transport(with: .retry())
        var shown: [String] = []
        func show(_ text: String) { shown.append(text) }

        try await SampleAPI.$api.withValue(server.baseURL) {
            let response = try await stream(.completions(for: "Tell me a story"), through: transport)
            for try await event in response.body.events {
                guard event.data != "[DONE]" else { break }
                let token = try JSONDecoder().decode(Token.self, from: Data(event.data.utf8))
                show(token.text)
            }
        }

        #expect(shown.joined() == "Once upon a time")
        #expect(await server.takeRequest()?.method == "POST")
        #expect(await eventually { server.inFlightRequestCount == 0 })
    }

    @Test func limitsAreGivenToTheCall() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["one\n", "two"], every: .milliseconds(20)))
        let transport = makeTestNetworkSession().transport
        let job = 7

        let lines = try await SampleAPI.$api.withValue(server.baseURL) {
            let limits = StreamLimits(idleTimeout: .seconds(120), maximumSize: 50 << 20, maximumLineLength: 64 << 10)
            let response = try await stream(.logs(of: job), through: transport, limits: limits)
            #expect(response.body.limits == limits)
            var lines: [String] = []
            for try await line in response.body.lines { lines.append(line) }
            return lines
        }

        #expect(lines == ["one", "two"])
    }

    @Test func theErrorsYouActOnAreCaught() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("first\n"), .pause(.seconds(30))]))
        server.enqueue(.stream([.text("data\n"), .repeating(Data(repeating: UInt8(ascii: "x"), count: 8192), every: .milliseconds(10))]))
        let transport = makeTestNetworkSession().transport
        var shown: [String] = []
        var stalled: [Duration] = []
        var truncated: [Int] = []
        func show(_ line: String) { shown.append(line) }
        func showStalled(after limit: Duration) { stalled.append(limit) }
        func showTruncated(at limit: Int) { truncated.append(limit) }

        func read(_ response: StreamedResponse) async throws {
            do {
                for try await line in response.body.lines { show(line) }
            } catch StreamError.idleTimeout(let limit, _) {
                showStalled(after: limit)
            } catch TransportError.responseTooLarge(let limit, _) {
                showTruncated(at: limit)
            }
        }

        let silent = Endpoint(baseURL: server.url(for: "/silent"))
        try await read(stream(silent, through: transport, limits: StreamLimits(idleTimeout: .seconds(1))))
        let large = Endpoint(baseURL: server.url(for: "/large"))
        try await read(stream(large, through: transport, limits: StreamLimits(idleTimeout: .seconds(10), maximumSize: 100_000)))

        #expect(stalled == [.seconds(1)])
        #expect(truncated == [100_000])
        #expect(shown == ["first", "data"])
    }

    @Test func cancellingTheReadingTaskStopsTheTransfer() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("one\n"), .pause(.milliseconds(200)), .repeating(Data("tick\n".utf8), every: .milliseconds(20))]))
        let shown = Collected<String>()
        @Sendable func show(_ line: String) { shown.append(line) }
        let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: makeTestNetworkSession().transport)

        let reading = Task {
            for try await line in response.body.lines {
                show(line)
            }
        }
        // When the screen closes:
        reading.cancel()

        await #expect(throws: CancellationError.self) {
            try await withDocSampleTimeLimit { try await reading.value }
        }
        #expect(await eventually { server.inFlightRequestCount == 0 })
    }

    @Test func eventsOfOneTypeAreShownAcrossConnections() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .events([
                ServerSentEvent(event: "price", data: #"{"amount":42}"#, id: "1", retry: .milliseconds(10)),
                ServerSentEvent(event: "news", data: "A new iPad"),
            ]))
        server.enqueue(.events([ServerSentEvent(event: "price", data: #"{"amount":41}"#, id: "2")]))
        server.enqueue(LoopbackServer.Response(status: 204))
        let transport = makeTestNetworkSession().transport
        let shown = Collected<Price>()
        @Sendable func show(_ price: Price) { shown.append(price) }

        try await withDocSampleTimeLimit {
            try await SampleAPI.$api.withValue(server.baseURL) {
                let events = eventStreaming(from: transport, reconnection: EventStreamReconnection(delay: .seconds(2), maximumAttempts: 10))
                for try await event in events(.priceUpdates) where event.event == "price" {
                    show(try JSONDecoder().decode(Price.self, from: Data(event.data.utf8)))
                }
            }
        }

        #expect(shown.values == [Price(amount: 42), Price(amount: 41)])
        #expect(server.requestCount == 3)
        let first = await server.takeRequest()
        #expect(first?.header("Accept") == "text/event-stream")
        #expect(first?.header("Last-Event-ID") == nil)
        #expect(await server.takeRequest()?.header("Last-Event-ID") == "1")
        #expect(await server.takeRequest()?.header("Last-Event-ID") == "2")
    }

    @Test func theFeedReconnectsFromTheLastEvent() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .eventStream([.event(ServerSentEvent(data: "one", id: "1")), .eventCutShort(ServerSentEvent(data: "two", id: "2"))]))
        server.enqueue(.events([ServerSentEvent(data: "two", id: "2")]))
        let clock = TestClock()
        let events = eventStreaming(
            from: NetworkSession.shared.transport, reconnection: EventStreamReconnection(delay: .seconds(5)), clock: clock)

        let received = Future {
            var data: [String] = []
            for try await event in events(Endpoint(baseURL: server.url(for: "/feed"))) {
                data.append(event.data)
                if data.count == 2 { break }
            }
            return data
        }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))

        #expect(try await received.value(within: .seconds(30)) == ["one", "two"])
        _ = await server.takeRequest()
        #expect(await server.takeRequest()?.header("Last-Event-ID") == "1")
    }

    @Test func pricesChainIntoATypedFunction() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .events([ServerSentEvent(data: #"{"amount":41}"#), ServerSentEvent(data: #"{"amount":42}"#, retry: .milliseconds(10))]))
        server.enqueue(LoopbackServer.Response(status: 204))
        let transport = makeTestNetworkSession().transport

        let received = try await withDocSampleTimeLimit {
            try await SampleAPI.$api.withValue(server.baseURL) {
                let prices: @Sendable (Product.ID) -> AsyncThrowingStream<Price, any Error> =
                    chain(
                        chain(Endpoint.prices, to: eventStreaming(from: transport)),
                        to: AsyncThrowingStream<ServerSentEvent, any Error>.decoded)
                var received: [Price] = []
                for try await price in prices(7) { received.append(price) }
                return received
            }
        }

        #expect(received == [Price(amount: 41), Price(amount: 42)])
        #expect(await server.takeRequest()?.path == "/prices/7")
    }

    @Test @MainActor func theBoardShowsTheLatestPrice() async throws {
        let board = PriceBoard { _ in
            AsyncThrowingStream { continuation in
                continuation.yield(Price(amount: 41))
                continuation.yield(Price(amount: 42))
                continuation.finish()
            }
        }
        try await board.follow(7)
        #expect(board.shown[7] == 42)
    }

    @Test @MainActor func theBoardKeepsThePriceShownWhenTheFeedFails() async throws {
        let board = PriceBoard { _ in
            AsyncThrowingStream { continuation in
                continuation.yield(Price(amount: 41))
                continuation.finish(throwing: StreamError.idleTimeout(limit: .seconds(60), url: "https://shop.example/prices/7"))
            }
        }
        await #expect(throws: StreamError.self) { try await board.follow(7) }
        #expect(board.shown[7] == 41)
    }

    private func answer(in body: ResponseBody) async throws -> String {
        var text = ""
        for try await event in body.events where event.data != "[DONE]" {
            text += event.data
        }
        return text
    }

    @Test func theAnswerJoinsTheTokens() async throws {
        let body = ResponseBody(Data("data: Hel\n\ndata: lo\n\ndata: [DONE]\n\n".utf8))
        #expect(try await answer(in: body) == "Hello")
    }

    @Test func theLogArrivesLineByLine() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["Compiling\nLin", "king\n", "Done"], every: .milliseconds(50)))

        let logs = Endpoint(baseURL: server.url(for: "/jobs/7/log"))
        let response = try await stream(logs, through: NetworkSession.shared.transport, limits: StreamLimits(idleTimeout: .seconds(10)))
        var lines: [String] = []
        for try await line in response.body.lines {
            lines.append(line)
        }

        #expect(lines == ["Compiling", "Linking", "Done"])
    }

    @Test func aLineThatNeverEndsStopsAtTheLimit() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .eventStream([.text("data: "), .repeating(Data(repeating: UInt8(ascii: "x"), count: 8192), every: .milliseconds(10))]))

        let feed = Endpoint(baseURL: server.url(for: "/feed"))
        let response = try await stream(feed, through: NetworkSession.shared.transport, limits: StreamLimits(maximumLineLength: 64 << 10))
        await #expect(throws: ServerSentEventError.lineTooLong(limit: 64 << 10)) {
            for try await _ in response.body.events {}
        }
    }
}
