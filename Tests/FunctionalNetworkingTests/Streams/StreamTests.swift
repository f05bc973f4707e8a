import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Waits, at most `timeout`, until `condition` holds.
private func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// An endless line of `x` at about 800 KB/s: a line limit of 64 KiB is passed within a tenth of
/// a second, and a reader would have to be kept from running for 40 s (the whole suite on two
/// cores keeps one from running for seconds) to fall 32 MiB behind.
private var endlessDrip: LoopbackServer.Response {
    .stream([.text("data: "), .repeating(Data(repeating: UInt8(ascii: "x"), count: 8192), every: .milliseconds(10))])
}

@Suite("stream(_:through:limits:): a response as it arrives")
struct StreamTests {
    @Test("The status and headers come first; each chunk arrives while the server still holds the rest")
    func headFirstThenChunks() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .stream(
                [.text("one"), .pause(.milliseconds(100)), .text("two"), .pause(.seconds(120)), .text("never read")],
                headers: [.init("X-Job", "7")]))
        let session = makeTestNetworkSession()

        let response = try await stream(Endpoint(baseURL: server.url(for: "/logs")), through: session.transport)
        var received = ""
        for try await chunk in response.body {
            received += String(decoding: chunk, as: UTF8.self)
            if received == "onetwo" { break }
        }

        // The server holds its last part for two minutes: everything above happened before it.
        #expect(response.statusCode == 200)
        #expect(response.headers["X-Job"] == "7")
        #expect(received == "onetwo")
    }

    @Test("Lines end with LF, CRLF or CR, across chunks; the last line needs no end")
    func lines() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.chunks(["first\nsec", "ond\r", "\nthird\rfourth\n\nlast"], every: .milliseconds(20)))
        let session = makeTestNetworkSession()

        let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: session.transport)
        var lines: [String] = []
        for try await line in response.body.lines {
            lines.append(line)
        }

        #expect(lines == ["first", "second", "third", "fourth", "", "last"])
    }

    @Test("A non-2xx answer is read whole and fails with HTTPStatusError carrying its body")
    func statusError() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(LoopbackServer.Response(status: 403, body: Data("{\"error\":\"no\"}".utf8)))
        let session = makeTestNetworkSession()

        await #expect {
            _ = try await stream(Endpoint(baseURL: server.url(for: "/")), through: session.transport)
        } throws: { error in
            (error as? HTTPStatusError)?.status == 403 && (error as? HTTPStatusError)?.body == Data("{\"error\":\"no\"}".utf8)
        }
    }

    @Test("A connection cut mid-stream ends the body with networkConnectionLost after the bytes that came")
    func cutMidStream() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("abc"), .pause(.milliseconds(50)), .cut]))
        let session = makeTestNetworkSession()

        let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: session.transport)
        var received = Data()
        await #expect {
            for try await chunk in response.body { received.append(chunk) }
        } throws: { error in
            (error as? TransportError)?.urlError?.code == .networkConnectionLost
        }
        #expect(received == Data("abc".utf8))
    }

    @Test("Leaving the loop cancels the transfer at once: the server sees the connection close")
    func leavingTheLoopCancels() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let session = makeTestNetworkSession()

        do {
            let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: session.transport)
            for try await _ in response.body { break }
        }

        #expect(await eventually { server.inFlightRequestCount == 0 })
    }

    @Test("A slow drip past the idle limit fails the stream with StreamError.idleTimeout and closes the connection")
    func idleLimit() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("a"), .repeating(Data(".".utf8), every: .seconds(1))]))
        let session = makeTestNetworkSession()
        let limits = StreamLimits(idleTimeout: .milliseconds(300))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/")), through: session.transport, limits: limits)
        var received = Data()
        await #expect {
            for try await chunk in response.body { received.append(chunk) }
        } throws: { error in
            if case .idleTimeout(let limit, _) = error as? StreamError { limit == .milliseconds(300) } else { false }
        }
        // The drip sends its first drop at once, and more if the reader was kept from running.
        #expect(received.starts(with: Data("a.".utf8)) && received.dropFirst().allSatisfy { $0 == UInt8(ascii: ".") })
        #expect(await eventually { server.inFlightRequestCount == 0 })
    }

    @Test("Past the total limit the stream fails with responseTooLarge")
    func totalLimit() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let session = makeTestNetworkSession()

        let response = try await stream(
            Endpoint(baseURL: server.url(for: "/")), through: session.transport, limits: StreamLimits(maximumSize: 100_000))
        var received = 0
        await #expect {
            for try await chunk in response.body { received += chunk.count }
        } throws: { error in
            (error as? TransportError) == .responseTooLarge(limit: 100_000, url: server.url(for: "/").absoluteString)
        }
        #expect(received <= 100_000)
    }

    @Test("An endless line fails at the line limit")
    func endlessLine() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(endlessDrip)
        let session = makeTestNetworkSession()

        let response = try await stream(
            Endpoint(baseURL: server.url(for: "/")), through: session.transport, limits: StreamLimits(maximumLineLength: 64 << 10))
        await #expect(throws: StreamError.lineTooLong(limit: 64 << 10)) {
            for try await _ in response.body.lines {}
        }
        #expect(await eventually { server.inFlightRequestCount == 0 })
    }

    @Test("A stub transport's body is streamed from memory")
    func stubTransport() async throws {
        let session = NetworkSession(sending: { request in
            (Data("a\nb\n".utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!)
        })

        let response = try await stream(Endpoint(baseURL: URL(string: "https://shop.test/feed")!), through: session.transport)
        var lines: [String] = []
        for try await line in response.body.lines { lines.append(line) }

        #expect(lines == ["a", "b"])
    }

    @Test("A body is read once: a second reader gets StreamError.alreadyConsumed")
    func readOnce() async throws {
        let body = ResponseBody(Data("abc".utf8))
        for try await _ in body {}
        await #expect(throws: StreamError.alreadyConsumed) {
            for try await _ in body {}
        }
    }
}
