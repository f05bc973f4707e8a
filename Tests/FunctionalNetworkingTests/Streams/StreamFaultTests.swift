import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A body that never ends: `start` and a line, then `x` at about 200 KB/s, slow enough that a
/// reader who stopped reading would not fall 32 MiB behind (which ends a stream on Linux) within
/// any test's time.
private var endlessDrip: LoopbackServer.Response {
    .stream([.text("start\n"), .repeating(Data(repeating: UInt8(ascii: "x"), count: 1_024), every: .milliseconds(5))])
}

/// `abc`, a pause, then `defg`: seven bytes that end no sooner than 200 ms after the head.
private var sevenBytesIn200Milliseconds: LoopbackServer.Response {
    .stream([.text("abc"), .pause(.milliseconds(200)), .text("defg")])
}

/// Reads `response`'s body to its end, returning the bytes.
private func readAll(_ response: StreamedResponse) async throws -> Data {
    var data = Data()
    for try await chunk in response.body { data.append(chunk) }
    return data
}

/// The `.finished` events among `events`.
private func finished(_ events: [MetricsEvent]) -> [RequestMetrics] {
    events.compactMap { event in
        if case .finished(let metrics) = event { metrics } else { nil }
    }
}

@Suite("Streams through composers: what happens before and after the first byte")
struct StreamFaultTests {
    // MARK: - Before the first byte

    @Test("A 401 before the stream refreshes the credential, then the stream arrives; the refresh's own answer is whole")
    func credentialRefreshBeforeTheStream() async throws {
        let server = try LoopbackServer { request in
            if request.path == "/token" { return .text("fresh") }
            guard request.header("Authorization") == "Bearer fresh" else { return .text("expired", status: 401) }
            return .chunks(["one\n", "two\n"], every: .milliseconds(20))
        }
        defer { server.stop() }
        let session = makeTestNetworkSession()
        let bare = session.transport
        let tokens = Collected<Data>()
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [try #require(Origin(url: server.baseURL))],
            refresh: { _ in
                // Through the same session, inside the streamed call: its body must come whole.
                let (data, _) = try await bare(URLRequest(url: server.url(for: "/token")))
                tokens.append(data)
                return .bearer(String(decoding: data, as: UTF8.self))
            },
            clock: TestClock()
        )

        let response = try await stream(
            Endpoint(baseURL: server.url(for: "/feed")), through: session.transport(with: .authenticated(by: auth)))
        var lines: [String] = []
        for try await line in response.body.lines { lines.append(line) }

        #expect(lines == ["one", "two"])
        #expect(tokens.values == [Data("fresh".utf8)])
        var seen: [String] = []
        while let request = await server.takeRequest(timeout: .seconds(1)) {
            seen.append("\(request.path) \(request.header("Authorization") ?? "-")")
        }
        #expect(seen == ["/feed Bearer stale", "/token -", "/feed Bearer fresh"])
    }

    @Test("retry() retries a 503 before the stream; the stream then arrives whole")
    func retryBeforeTheStream() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("busy", status: 503))
        server.enqueue(.fault(.closeAfterRequest))
        server.enqueue(.chunks(["abc", "def"], every: .milliseconds(20)))
        let transport = makeTestNetworkSession().transport(with: .retry(RetryPolicy(backoff: .immediate)))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: transport)

        #expect(response.statusCode == 200)
        #expect(try await readAll(response) == Data("abcdef".utf8))
        #expect(server.requestCount == 3)
    }

    @Test("retry() never sends again once the stream has begun: a cut mid-body reaches the reader")
    func noRetryAfterTheFirstByte() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("abc"), .pause(.milliseconds(50)), .cut]))
        server.enqueue(.text("a second answer nobody asked for"))
        let transport = makeTestNetworkSession().transport(with: .retry(RetryPolicy(backoff: .immediate)))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: transport)
        var received = Data()
        await #expect {
            for try await chunk in response.body { received.append(chunk) }
        } throws: { error in
            (error as? TransportError)?.urlError?.code == .networkConnectionLost
        }

        #expect(received == Data("abc".utf8))
        #expect(server.requestCount == 1)
        #expect(server.queuedResponseCount == 1)
    }

    @Test("A declared length over the stream's size limit fails before the stream, with responseTooLarge")
    func declaredLengthOverTheLimit() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(LoopbackServer.Response(body: Data(count: 100_000)))

        await #expect(throws: TransportError.responseTooLarge(limit: 1_000, url: server.url(for: "/export").absoluteString)) {
            _ = try await stream(
                Endpoint(baseURL: server.url(for: "/export")), through: makeTestNetworkSession().transport,
                limits: StreamLimits(maximumSize: 1_000))
        }
    }

    @Test("A composer that sends a 2xx call twice: the first attempt's stream is cancelled, the second is the caller's")
    func secondAttemptWins() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        server.enqueue(.chunks(["second"], every: .zero))
        let twice = Composer { next in
            { request in
                _ = try await next(request)
                return try await next(request)
            }
        }

        let response = try await stream(
            Endpoint(baseURL: server.url(for: "/feed")), through: makeTestNetworkSession().transport(with: twice))

        #expect(try await readAll(response) == Data("second".utf8))
        try await waitUntil(within: .seconds(30), "the first attempt's connection closed") { server.inFlightRequestCount == 0 }
        #expect(server.requestCount == 2)
    }

    // MARK: - Logging

    @Test("logged(to:) writes the start at once and the end when the stream ends, with its bytes and \" streamed\"")
    func loggedAtTheStreamsEnd() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(sevenBytesIn200Milliseconds)
        let records = Collected<LogRecord>()
        let transport = makeTestNetworkSession().transport(with: .logged(to: { records.append($0) }))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: transport)
        #expect(records.values.first?.event == .started)
        #expect(try await readAll(response) == Data("abcdefg".utf8))

        try await waitUntil(within: .seconds(30), "the end record") { records.values.count == 2 }
        let end = try #require(records.values.last)
        #expect(end.event == .finished)
        #expect(end.status == 200)
        #expect(end.bytes == 7)
        #expect(end.message.hasPrefix("← "))
        #expect(end.message.contains(" 200 in "))
        #expect(end.message.hasSuffix(", 7 bytes streamed"))
        #expect(try #require(end.duration) >= .milliseconds(200))  // Not the head's time: the stream's.
    }

    @Test("logged(to:) writes nothing more while the stream runs, and a cancellation record when the reader leaves")
    func loggedCancellation() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let records = Collected<LogRecord>()
        let transport = makeTestNetworkSession().transport(with: .logged(to: { records.append($0) }))

        do {
            let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: transport)
            var chunks = 0
            for try await _ in response.body {
                chunks += 1
                #expect(records.values.map(\.event) == [.started])
                if chunks == 5 { break }
            }
        }

        try await waitUntil(within: .seconds(30), "the cancellation record") { records.values.count == 2 }
        let end = try #require(records.values.last)
        #expect(end.event == .cancelled)
        #expect(end.level == .info)
        #expect(end.message.hasPrefix("✕ "))
        #expect(end.message.contains(" cancelled after "))
        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
    }

    @Test("logged(to:) writes a failure record when the stream is cut mid-body")
    func loggedFailure() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("abc"), .pause(.milliseconds(50)), .cut]))
        let records = Collected<LogRecord>()
        let transport = makeTestNetworkSession().transport(with: .logged(to: { records.append($0) }))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: transport)
        await #expect(throws: TransportError.self) { _ = try await readAll(response) }

        try await waitUntil(within: .seconds(30), "the failure record") { records.values.count == 2 }
        let end = try #require(records.values.last)
        #expect(end.event == .failed)
        #expect(end.level == .error)
        #expect(end.error != nil)
        #expect(end.message.contains(" failed after "))
    }

    // MARK: - Metrics

    @Test("metrics(to:) reports the start at once and the end when the stream ends, with its bytes")
    func metricsAtTheStreamsEnd() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(sevenBytesIn200Milliseconds)
        let events = Collected<MetricsEvent>()
        let transport = makeTestNetworkSession().transport(with: .metrics(to: { events.append($0) }))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: transport)
        #expect(events.values.count >= 1)
        _ = try await readAll(response)

        try await waitUntil(within: .seconds(30), "the end") { finished(events.values).count == 1 }
        let metrics = try #require(finished(events.values).first)
        #expect(events.values.count == 2)
        #expect(metrics.bytes == 7)
        #expect(metrics.status == 200)
        #expect(metrics.error == nil)
        #expect(!metrics.wasCancelled)
        #expect(metrics.duration >= .milliseconds(200))
    }

    @Test("metrics(to:) reports a stream its reader left as cancelled, only once it is left")
    func metricsCancellation() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let events = Collected<MetricsEvent>()
        let transport = makeTestNetworkSession().transport(with: .metrics(to: { events.append($0) }))

        var read = 0
        do {
            let response = try await stream(Endpoint(baseURL: server.url(for: "/feed")), through: transport)
            for try await chunk in response.body {
                read += chunk.count
                #expect(finished(events.values).isEmpty)
                if read > 5_000 { break }
            }
        }

        try await waitUntil(within: .seconds(30), "the end") { finished(events.values).count == 1 }
        let metrics = try #require(finished(events.values).first)
        #expect(metrics.wasCancelled)
        #expect(metrics.bytes >= read)
        #expect(metrics.status == 200)
    }

    @Test("metrics(into:) counts a stream in flight until it ends, then its bytes; a cancelled one is no failure")
    func metricsIntoARecorder() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(sevenBytesIn200Milliseconds)
        server.enqueue(endlessDrip)
        server.enqueue(.stream([.text("abc"), .pause(.milliseconds(50)), .cut]))
        let recorder = MetricsRecorder()
        let transport = makeTestNetworkSession().transport(with: .metrics(into: recorder))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/one")), through: transport)
        _ = try await readAll(response)
        try await waitUntil(within: .seconds(30), "the first stream counted") { recorder.summary.count == 1 }
        #expect(recorder.summary.bytes == 7)
        #expect(recorder.summary.failures == 0)
        #expect(recorder.summary.inFlight == 0)

        do {
            let endless = try await stream(Endpoint(baseURL: server.url(for: "/two")), through: transport)
            for try await _ in endless.body {
                #expect(recorder.summary.inFlight == 1)
                #expect(recorder.summary.count == 1)
                break
            }
        }
        try await waitUntil(within: .seconds(30), "the cancelled stream counted") { recorder.summary.count == 2 }
        #expect(recorder.summary.failures == 0)
        #expect(recorder.summary.inFlight == 0)

        let cut = try await stream(Endpoint(baseURL: server.url(for: "/three")), through: transport)
        await #expect(throws: TransportError.self) { _ = try await readAll(cut) }
        try await waitUntil(within: .seconds(30), "the cut stream counted") { recorder.summary.count == 3 }
        #expect(recorder.summary.failures == 1)
    }

    // MARK: - Cache and de-duplication

    @Test("The cache and de-duplication let streamed calls pass: two concurrent streams of one URL are two requests")
    func cacheAndDeduplicationLetStreamsPass() async throws {
        // The first two requests are answered once both have arrived, so that they are in flight together.
        let bothArrived = Arrivals(expected: 2)
        let server = try LoopbackServer { _ in
            bothArrived.arriveAndWait(timeout: .seconds(30))
            return .stream([.text("abc"), .pause(.milliseconds(50)), .text("def")], headers: [.init("Cache-Control", "max-age=600")])
        }
        defer { server.stop() }
        let cache = ResponseCache(cookieStorage: nil)
        let transport = makeTestNetworkSession().transport(with: .cached(in: cache), .deduplicated())
        let endpoint = Endpoint(baseURL: server.url(for: "/feed"))

        async let first = stream(endpoint, through: transport)
        async let second = stream(endpoint, through: transport)
        let responses = try await [first, second]
        for response in responses {
            #expect(try await readAll(response) == Data("abcdef".utf8))
        }
        #expect(server.requestCount == 2)
        #expect(server.peakConcurrentRequests == 2)

        // Nothing was kept: a later stream, and a call that is not streamed, go to the server
        // and get the whole body.
        #expect(try await readAll(try await stream(endpoint, through: transport)) == Data("abcdef".utf8))
        #expect(try await networking(from: transport)(endpoint).value == Data("abcdef".utf8))
        #expect(server.requestCount == 4)
    }

    // MARK: - Nothing left behind

    @Test("Cancelling 20 event streams while they wait for the next event leaves no connection, thread or descriptor")
    func cancelledStreamsLeaveNothing() async throws {
        try #require(processResourceCounts() != nil, "needs /proc")
        let session = makeTestNetworkSession()
        let events = eventStreaming(from: session.transport)
        let waiting = LoopbackServer.Response.eventStream([
            .event(ServerSentEvent(data: "first")), .repeating(Data(": still here\n".utf8), every: .milliseconds(20)),
        ])
        // One stream first, so that the session's own threads and descriptors are there before counting.
        try await cancelFirstEvents(servers: 1, responding: waiting, through: events)
        let before = try #require(processResourceCounts())

        try await cancelFirstEvents(servers: 20, responding: waiting, through: events)

        // Alone, the counts are this test's own; beside other tests, theirs count too.
        let tolerance = memoryAlone ? (descriptors: 4, threads: 8) : (descriptors: 512, threads: 128)
        var after = before
        try await waitUntil(within: .seconds(30), "the process's descriptors and threads are back") {
            after = processResourceCounts() ?? before
            return after.descriptors <= before.descriptors + tolerance.descriptors && after.threads <= before.threads + tolerance.threads
        }
        if ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_REPORT"] != nil {
            FileHandle.standardError.write(
                Data(
                    "stream cancellation: descriptors \(before.descriptors) → \(after.descriptors), threads \(before.threads) → \(after.threads)\n"
                        .utf8))
        }
    }
}

/// A meeting point for the server's connections: each arrival waits (on its own connection's
/// thread) until `expected` have arrived, or `timeout` has passed; later arrivals go on at once.
private final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private let expected: Int
    private var count = 0

    init(expected: Int) {
        self.expected = expected
    }

    func arriveAndWait(timeout: Duration) {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        condition.lock()
        defer { condition.unlock() }
        count += 1
        condition.broadcast()
        while count < expected, condition.wait(until: deadline) {}
    }
}

/// Whether the test process runs a memory test alone (`.ci/run`'s "Memory alone" step), so that
/// the process's counts are the test's own.
private var memoryAlone: Bool { ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_MEMORY_ALONE"] != nil }

/// Starts `servers` LoopbackServers answering `response`, opens an event stream from each, and
/// cancels each reader while it waits for the event after the first; then checks that each
/// server saw its connection close, that nothing reconnected and that no socket to them is left
/// open, and stops and lets go of the servers (whose descriptors close when they are freed).
private func cancelFirstEvents(
    servers count: Int, responding response: LoopbackServer.Response, through events: @escaping EventStreaming
) async throws {
    let servers = try (0..<count).map { _ in try LoopbackServer { _ in response } }
    defer { for server in servers { server.stop() } }
    try await firstEventThenCancel(of: servers, through: events)
    #expect(servers.allSatisfy { $0.requestCount == 1 })  // Nothing reconnected.
    try await waitUntil(within: .seconds(30), "no socket to the servers is open") {
        openSockets(toPorts: Set(servers.map(\.port))) == 0
    }
}

/// Opens an event stream from each of `servers`, waits until each has brought its first event,
/// cancels the readers while they wait for the next, and waits until each server has seen its
/// connection close.
private func firstEventThenCancel(of servers: [LoopbackServer], through events: @escaping EventStreaming) async throws {
    let firsts = Counter()
    let readers = servers.map { server in
        Task {
            for try await _ in events(Endpoint(baseURL: server.url(for: "/events"))) { firsts.increment() }
        }
    }
    try await waitUntil(within: .seconds(30), "every stream brought its first event") { firsts.value == servers.count }
    for reader in readers { reader.cancel() }
    for reader in readers {
        await #expect(throws: CancellationError.self) { try await reader.value }
    }
    try await waitUntil(within: .seconds(30), "each server saw its connection close") {
        servers.allSatisfy { $0.inFlightRequestCount == 0 }
    }
}

/// The process's open file descriptors and threads, from `/proc/self`; `nil` where there is none.
private func processResourceCounts() -> (descriptors: Int, threads: Int)? {
    guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"),
        let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
    else { return nil }
    return (descriptors.count, threads.count)
}

/// How many of the process's descriptors are TCP sockets connected to one of `ports` (the
/// client's end of a connection to those servers), from `/proc/self/fd` and `/proc/net/tcp`.
private func openSockets(toPorts ports: Set<Int>) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, let colon = fields[2].lastIndex(of: ":"),
                let port = Int(fields[2][fields[2].index(after: colon)...], radix: 16), ports.contains(port)
            else { continue }
            inodes.insert(String(fields[9]))
        }
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.count { name in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
            target.hasPrefix("socket:["), target.hasSuffix("]")
        else { return false }
        return inodes.contains(String(target.dropFirst("socket:[".count).dropLast()))
    }
}
