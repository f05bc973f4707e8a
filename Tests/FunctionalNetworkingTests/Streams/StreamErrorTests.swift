import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("StreamError: why a stream stopped, in words, without secrets")
struct StreamErrorTests {
    static let url = "https://shop.test/feed?token=<redacted>"

    /// Every case, with the exact words it says.
    static let cases: [(StreamError, String)] = [
        (
            .idleTimeout(limit: .milliseconds(300), url: url),
            "No bytes arrived from https://shop.test/feed?token=<redacted> for 0.3 seconds, the stream's idle limit, "
                + "so the stream was stopped; raise StreamLimits.idleTimeout if the server may stay silent longer."
        ),
        (
            .lineTooLong(limit: 1_024),
            "A line of the stream is longer than the limit of 1024 bytes, so the stream was stopped; "
                + "raise StreamLimits.maximumLineLength if the server's lines are that long."
        ),
        (
            .fellBehind(limit: 33_554_432, url: url),
            "The reader fell more than 33554432 bytes behind the stream from https://shop.test/feed?token=<redacted>, "
                + "which this platform cannot pause, so the stream was stopped; read the body as it arrives and move slow work "
                + "out of the reading loop."
        ),
        (
            .notEventStream(contentType: "text/html; charset=utf-8", url: url),
            "The answer from https://shop.test/feed?token=<redacted> is text/html; charset=utf-8, not an event stream "
                + "(text/event-stream), so no event was read."
        ),
        (
            .notEventStream(contentType: nil, url: url),
            "The answer from https://shop.test/feed?token=<redacted> has no Content-Type, so it is not an event stream "
                + "(text/event-stream) and no event was read."
        ),
        (
            .alreadyConsumed,
            "The response body was read a second time; a streamed body is read once, as it arrives."
        ),
    ]

    @Test("Each case says what happened, word for word", arguments: 0..<6)
    func words(of index: Int) {
        let (error, words) = Self.cases[index]
        #expect(error.description == words)
        #expect(String(describing: error) == words)
        #expect("\(error)" == words)
    }

    @Test("localizedDescription says the same words as description", arguments: 0..<6)
    func localizedDescription(of index: Int) {
        let (error, words) = Self.cases[index]
        #expect(error.localizedDescription == words)
        #expect((error as any Error).localizedDescription == words)
        #expect(error.errorDescription == words)
    }

    @Test("An idle stream's error names the URL redacted: the token in its query never shows")
    func idleTimeoutIsRedacted() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("a"), .pause(.seconds(30))]))
        let endpoint = Endpoint(
            baseURL: server.baseURL, path: "/feed",
            queryItems: [URLQueryItem(name: "token", value: "abc123secret"), URLQueryItem(name: "page", value: "2")])
        let response = try await stream(
            endpoint, through: makeTestNetworkSession().transport, limits: StreamLimits(idleTimeout: .milliseconds(200)))

        var caught: (any Error)?
        do {
            for try await _ in response.body {}
        } catch {
            caught = error
        }

        let expected = "http://127.0.0.1:\(server.port)/feed?token=<redacted>&page=2"
        #expect(caught as? StreamError == .idleTimeout(limit: .milliseconds(200), url: expected))
        #expect(caught.map { String(describing: $0).contains("abc123secret") } == false)
        #expect(caught?.localizedDescription.contains("abc123secret") == false)
        #expect(caught?.localizedDescription.contains(expected) == true)
    }

    @Test("An answer that is not an event stream names the URL redacted")
    func notEventStreamIsRedacted() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(LoopbackServer.Response(headers: [.init("Content-Type", "text/html")], body: Data("<html></html>".utf8)))
        let endpoint = Endpoint(
            baseURL: server.baseURL, path: "/events", queryItems: [URLQueryItem(name: "access_token", value: "abc123secret")])
        let events = eventStreaming(from: makeTestNetworkSession().transport, reconnection: .never)

        var caught: (any Error)?
        do {
            for try await _ in events(endpoint) {}
        } catch {
            caught = error
        }

        let expected = "http://127.0.0.1:\(server.port)/events?access_token=<redacted>"
        #expect(caught as? StreamError == .notEventStream(contentType: "text/html", url: expected))
        #expect(caught.map { String(describing: $0).contains("abc123secret") } == false)
        #expect(caught?.localizedDescription.contains("abc123secret") == false)
    }

    @Test("A stream past its total size names the URL redacted")
    func tooLargeIsRedacted() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.repeating(Data(count: 4_096), every: .milliseconds(1))]))
        let endpoint = Endpoint(
            baseURL: server.baseURL, path: "/export", queryItems: [URLQueryItem(name: "api_key", value: "abc123secret")])
        let response = try await stream(
            endpoint, through: makeTestNetworkSession().transport, limits: StreamLimits(maximumSize: 10_000))

        var caught: (any Error)?
        do {
            for try await _ in response.body {}
        } catch {
            caught = error
        }

        #expect(
            caught as? TransportError
                == .responseTooLarge(limit: 10_000, url: "http://127.0.0.1:\(server.port)/export?api_key=<redacted>"))
        #expect(caught.map { String(describing: $0).contains("abc123secret") } == false)
    }
}
