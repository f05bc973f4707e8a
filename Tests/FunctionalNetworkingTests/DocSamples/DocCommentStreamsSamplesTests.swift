import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of the `///` comments of Sources/FunctionalNetworking/Streams, each inside a test
// as the comment shows it, against LoopbackServers on 127.0.0.1 or ready bodies. The samples'
// endpoints go to the test's server, set around each sample; `Product` is the test target's own
// (Support/Shop.swift).

/// Where the samples' endpoints go: the test's server, set around each sample.
private enum SampleAPI {
    @TaskLocal static var api = URL(string: "https://shop.example")!
}

extension Endpoint {
    fileprivate static var priceUpdates: Endpoint {
        Endpoint(baseURL: SampleAPI.api, path: "/prices/updates")
    }

    fileprivate static func prices(for id: Product.ID) -> Endpoint {
        Endpoint(baseURL: SampleAPI.api, path: "/prices/\(id)")
    }

    fileprivate static var export: Endpoint {
        Endpoint(baseURL: SampleAPI.api, path: "/export")
    }

    fileprivate static func logs(of job: Int) -> Endpoint {
        Endpoint(baseURL: SampleAPI.api, path: "/jobs/\(job)/log")
    }

    fileprivate static func completions(for prompt: String) -> Endpoint {
        let body = (try? JSONEncoder().encode(["prompt": prompt])) ?? Data()
        return Endpoint(method: .post, baseURL: SampleAPI.api, path: "/completions").with(body: body)
            .setting(header: "Content-Type", to: "application/json")
    }
}

private struct Price: Decodable, Sendable, Equatable {
    let price: Int
}

/// Waits, at most `timeout`, until `condition` holds: a logging record is written where the
/// stream ends, a moment after the reader has seen the end.
private func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// An authenticator for the test's server.
private func authenticator(for server: LoopbackServer) -> Authenticator {
    Authenticator(store: CredentialStore(.bearer("t0ken")), allowedOrigins: [Origin(url: server.baseURL)!])
}

@Suite("Doc-comment samples: EventStreamReconnection")
struct EventStreamReconnectionDocSamplesTests {
    @Test("A policy of one second and five attempts reads a feed")
    func policy() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.events([ServerSentEvent(data: "one", retry: .milliseconds(10))]))
        server.enqueue(LoopbackServer.Response(status: 204))
        let transport = makeTestNetworkSession().transport

        let events = eventStreaming(from: transport, reconnection: EventStreamReconnection(delay: .seconds(1), maximumAttempts: 5))
        let received = try await withDocSampleTimeLimit {
            var received: [String] = []
            for try await event in events(Endpoint(baseURL: server.url(for: "/feed"))) { received.append(event.data) }
            return received
        }

        #expect(received == ["one"])
        #expect(server.requestCount == 2)
        #expect(EventStreamReconnection(delay: .seconds(1), maximumAttempts: 5).maximumDelay == .seconds(60))
    }
}

@Suite("Doc-comment samples: EventStreaming")
struct EventStreamingDocSamplesTests {
    @Test("A ticker takes its events as a closure, and a test passes a ready stream")
    func readyStream() async throws {
        final class PriceTicker {
            private let events: EventStreaming
            init(events: @escaping EventStreaming) {
                self.events = events
            }
        }

        let ticker = PriceTicker(events: { _ in
            AsyncThrowingStream { continuation in
                continuation.yield(ServerSentEvent(data: "{\"price\": 42}"))
                continuation.finish()
            }
        })

        // The ticker keeps the function it was given; its stream gives the ready event.
        let events = try #require(Mirror(reflecting: ticker).descendant("events") as? EventStreaming)
        var received: [String] = []
        for try await event in events(Endpoint(baseURL: URL(string: "https://shop.example/prices")!)) { received.append(event.data) }
        #expect(received == ["{\"price\": 42}"])
    }

    @Test("Events through a composed transport, until the server answers 204")
    func composedTransport() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.events([ServerSentEvent(event: "price", data: "42", retry: .milliseconds(10))]))
        server.enqueue(LoopbackServer.Response(status: 204))
        let session = makeTestNetworkSession()
        let auth = authenticator(for: server)
        let records = Collected<LogRecord>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0) }

        try await withDocSampleTimeLimit {
            try await SampleAPI.$api.withValue(server.baseURL) {
                let events = eventStreaming(from: session.transport(with: .authenticated(by: auth), .logged(to: log)))
                for try await event in events(.priceUpdates) {
                    print(event.event, event.data)
                }
            }
        }

        #expect(await server.takeRequest()?.header("Authorization") == "Bearer t0ken")
        #expect(await eventually { records.values.contains { $0.message.hasSuffix("streamed") } })
    }

    @Test("The endpoint, its events and their decoding chain into one typed function")
    func chained() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.events([ServerSentEvent(data: "{\"price\": 42}", retry: .milliseconds(10))]))
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

        #expect(received == [Price(price: 42)])
        #expect(await server.takeRequest()?.path == "/prices/7")
    }

    @Test("Events decode as the type given")
    func decodedAs() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .events([ServerSentEvent(data: "{\"price\": 41}"), ServerSentEvent(data: "{\"price\": 42}", retry: .milliseconds(10))]))
        server.enqueue(LoopbackServer.Response(status: 204))
        let events = eventStreaming(from: makeTestNetworkSession().transport)
        let shown = Collected<Price>()
        @Sendable func show(_ price: Price) { shown.append(price) }

        try await withDocSampleTimeLimit {
            try await SampleAPI.$api.withValue(server.baseURL) {
                for try await price in events(.prices(for: 7)).decoded(as: Price.self) {
                    show(price)
                }
            }
        }

        #expect(shown.values == [Price(price: 41), Price(price: 42)])
    }
}

@Suite("Doc-comment samples: ResponseBody")
struct ResponseBodyDocSamplesTests {
    @Test("An export's chunks are written to a file as they arrive")
    func chunksToAFile() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["id,name\n", "7,iPad Pro\n"], every: .milliseconds(20)))
        let transport = makeTestNetworkSession().transport
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).csv")
        #expect(FileManager.default.createFile(atPath: path.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: path) }
        let file = try FileHandle(forWritingTo: path)

        try await SampleAPI.$api.withValue(server.baseURL) {
            let response = try await stream(.export, through: transport)
            for try await chunk in response.body {
                try file.write(contentsOf: chunk)
            }
        }
        try file.close()

        #expect(try String(contentsOf: path, encoding: .utf8) == "id,name\n7,iPad Pro\n")
    }

    @Test("A ready body is read as events")
    func readyBodyEvents() async throws {
        var data: [String] = []
        func print(_ text: String) { data.append(text) }

        let body = ResponseBody(Data("data: {\"price\": 42}\n\n".utf8))
        for try await event in body.events { print(event.data) }  // {"price": 42}

        #expect(data == ["{\"price\": 42}"])
    }

    @Test("A ready body is read as lines")
    func readyBodyLines() async throws {
        let body = ResponseBody(Data("first\nsecond\n".utf8))
        var lines: [String] = []
        for try await line in body.lines { lines.append(line) }
        #expect(lines == ["first", "second"])
    }

    @Test("A body fed from a stream of chunks")
    func fedBody() async throws {
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        let body = ResponseBody(chunks)
        continuation.yield(Data("data: hello\n\n".utf8))
        continuation.finish()

        var received: [String] = []
        for try await event in body.events { received.append(event.data) }
        #expect(received == ["hello"])
    }

    @Test("A whole body is collected within a limit")
    func collect() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["{\"total\":", " 3}"], every: .milliseconds(20)))
        let response = try await stream(Endpoint(baseURL: server.url(for: "/report")), through: makeTestNetworkSession().transport)

        let data = try await response.body.collect(upTo: 1 << 20)

        #expect(data == Data("{\"total\": 3}".utf8))
    }
}

@Suite("Doc-comment samples: ResponseBody+Events")
struct ResponseBodyEventsDocSamplesTests {
    @Test("A streamed response read as events")
    func events() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.events([ServerSentEvent(event: "price", data: "42"), ServerSentEvent(data: "closing")]))
        let transport = makeTestNetworkSession().transport
        var received: [String] = []
        func print(_ type: String, _ data: String) { received.append("\(type) \(data)") }

        try await SampleAPI.$api.withValue(server.baseURL) {
            let response = try await stream(.priceUpdates, through: transport)
            for try await event in response.body.events {
                print(event.event, event.data)
            }
        }

        #expect(received == ["price 42", "message closing"])
    }
}

@Suite("Doc-comment samples: ResponseBody+Lines")
struct ResponseBodyLinesDocSamplesTests {
    @Test("A streamed response read as lines")
    func lines() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["one\ntw", "o\n"], every: .milliseconds(20)))
        let response = try await stream(Endpoint(baseURL: server.url(for: "/log")), through: makeTestNetworkSession().transport)
        var received: [String] = []
        func print(_ line: String) { received.append(line) }

        for try await line in response.body.lines {
            print(line)
        }

        #expect(received == ["one", "two"])
    }
}

@Suite("Doc-comment samples: Stream")
struct StreamDocSamplesTests {
    @Test("A model's answer streams through a composed transport")
    func completions() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["Once upon\n", "a time\n"], every: .milliseconds(20)))
        let session = makeTestNetworkSession()
        let auth = authenticator(for: server)
        let records = Collected<LogRecord>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0) }
        let prompt = "Tell me a story"
        var received: [String] = []
        func print(_ line: String) { received.append(line) }

        try await SampleAPI.$api.withValue(server.baseURL) {
            let transport = session.transport(with: .authenticated(by: auth), .retry(), .logged(to: log))
            let response = try await stream(.completions(for: prompt), through: transport)
            for try await line in response.body.lines {
                print(line)
            }
        }

        #expect(received == ["Once upon", "a time"])
        let request = await server.takeRequest()
        #expect(request?.method == "POST")
        #expect(request?.header("Authorization") == "Bearer t0ken")
        #expect(await eventually { records.values.last?.message.hasSuffix("streamed") == true })
    }
}

@Suite("Doc-comment samples: StreamError")
struct StreamErrorDocSamplesTests {
    @Test("A stalled stream is caught as idleTimeout")
    func stalled() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("first\n"), .pause(.seconds(30))]))
        let response = try await stream(
            Endpoint(baseURL: server.url(for: "/log")), through: makeTestNetworkSession().transport,
            limits: StreamLimits(idleTimeout: .seconds(1)))
        var shown: [String] = []
        var stalledAfter: Duration?
        func show(_ line: String) { shown.append(line) }
        func showStalled(after limit: Duration) { stalledAfter = limit }

        do {
            for try await line in response.body.lines { show(line) }
        } catch StreamError.idleTimeout(let limit, _) {
            showStalled(after: limit)
        }

        #expect(shown == ["first"])
        #expect(stalledAfter == .seconds(1))
    }
}

@Suite("Doc-comment samples: StreamLimits")
struct StreamLimitsDocSamplesTests {
    @Test("Limits are given to the call")
    func limits() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["a\n"], every: .zero))
        let transport = makeTestNetworkSession().transport
        let prompt = "Tell me a story"

        let body = try await SampleAPI.$api.withValue(server.baseURL) {
            let limits = StreamLimits(idleTimeout: .seconds(30), maximumSize: 100 << 20)
            let response = try await stream(.completions(for: prompt), through: transport, limits: limits)
            #expect(response.body.limits == limits)
            return try await response.body.collect(upTo: 1 << 10)
        }

        #expect(body == Data("a\n".utf8))
    }
}

@Suite("Doc-comment samples: StreamedResponse")
struct StreamedResponseDocSamplesTests {
    @Test("The head comes first, then the lines")
    func headThenLines() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["Compiling\n", "Done\n"], every: .milliseconds(20)))
        let transport = makeTestNetworkSession().transport
        let job = 7
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        try await SampleAPI.$api.withValue(server.baseURL) {
            let response = try await stream(.logs(of: job), through: transport)
            print(response.statusCode, response.headers["Content-Type"] ?? "")
            for try await line in response.body.lines {
                print(line)
            }
        }

        #expect(printed == ["200 text/plain; charset=utf-8", "Compiling", "Done"])
        #expect(await server.takeRequest()?.path == "/jobs/7/log")
    }

    @Test("A streamed response made by hand")
    func byHand() async throws {
        let url = URL(string: "https://shop.example/feed")!
        let response = StreamedResponse(
            response: HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/event-stream"])!,
            body: ResponseBody(Data("data: hello\n\n".utf8))
        )

        #expect(response.statusCode == 200)
        #expect(response.headers["Content-Type"] == "text/event-stream")
        var received: [String] = []
        for try await event in response.body.events { received.append(event.data) }
        #expect(received == ["hello"])
    }
}

@Suite("Doc-comment samples: ServerSentEvent")
struct ServerSentEventDocSamplesTests {
    @Test("An event made by hand")
    func event() {
        let event = ServerSentEvent(event: "update", data: "{\"price\": 42}", id: "7")
        #expect(event.description == #"event "update", id "7", data "{\"price\": 42}""#)
    }
}

@Suite("Doc-comment samples: ServerSentEventParser")
struct ServerSentEventParserDocSamplesTests {
    @Test("Events come out as the blank lines that end them arrive")
    func parse() throws {
        var parser = ServerSentEventParser()
        var events = try parser.parse(Data("event: greeting\ndata: hello\nid: 1\n".utf8))
        events += try parser.parse(Data("\ndata: world\n\n".utf8))
        // events[0]: event "greeting", id "1", data "hello"
        // events[1]: event "message", id "1", data "world"
        #expect(events == [ServerSentEvent(event: "greeting", data: "hello", id: "1"), ServerSentEvent(data: "world", id: "1")])
    }
}
