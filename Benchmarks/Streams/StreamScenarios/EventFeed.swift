// The events every stream scenario and parser benchmark reads (section 12 of
// Benchmarks/README.md), and the server that sends them.

import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting

/// What each event carries as JSON: a price tick.
public struct Tick: Codable, Sendable, Equatable {
    /// The event's number, from 0.
    public let seq: Int
    /// A ticker symbol.
    public let symbol: String
    /// A price.
    public let price: Double
    /// Padding, so that every event is ``EventFeed/eventSize`` bytes long.
    public let note: String
}

/// The `text/event-stream` body of the benchmarks: `count` events of exactly ``eventSize``
/// bytes, each an `id:` line, a `data:` line holding a ``Tick`` as JSON, and the blank line.
///
/// ```text
/// id: 7
/// data: {"seq":7,"symbol":"ACME","price":107.25,"note":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}
///
/// ```
public enum EventFeed {
    /// The size of one event, its blank line included.
    public static let eventSize = 100

    /// The text of event `index`, padded to ``eventSize`` bytes.
    public static func event(_ index: Int) -> String {
        let head = "id: \(index)\ndata: {\"seq\":\(index),\"symbol\":\"ACME\",\"price\":\(100 + index % 100).25,\"note\":\""
        let tail = "\"}\n\n"
        let padding = max(0, eventSize - head.utf8.count - tail.utf8.count)
        return head + String(repeating: "x", count: padding) + tail
    }

    /// The whole body of `count` events.
    public static func body(count: Int) -> Data {
        var body = Data(capacity: count * eventSize)
        for index in 0..<count {
            body.append(contentsOf: event(index).utf8)
        }
        return body
    }

    /// `data` cut into chunks of `size` bytes (the last one shorter), wherever the cuts fall:
    /// inside lines and events, as a network cuts them.
    public static func chunks(of data: Data, size: Int) -> [Data] {
        stride(from: 0, to: data.count, by: size).map { start in
            data.subdata(in: start..<min(start + size, data.count))
        }
    }
}

/// How the server sends the events.
public enum StreamShape: String, Sendable, CaseIterable {
    /// The body in 16 KiB HTTP chunks, one `send` each, cut wherever 16 KiB falls: the server
    /// sends as fast as loopback takes it, so the client's work bounds the rate.
    case batched
    /// One HTTP chunk and one `send` per event (`LoopbackServer.Response.events(_:)`): the client
    /// may get many small reads, and the server does far more work per event.
    case perEvent = "per-event"

    /// The server's path for the shape.
    public var path: String {
        "/\(rawValue)"
    }
}

/// A `LoopbackServer` on 127.0.0.1 that answers every GET with the ``EventFeed`` of
/// `eventCount` events, in the ``StreamShape`` its path names; each response made once.
public final class EventServer: Sendable {
    /// The size of the chunks of ``StreamShape/batched``.
    public static let chunkSize = 16 << 10

    /// The server.
    public let server: LoopbackServer
    /// The events in one response.
    public let eventCount: Int

    /// Starts the server, with the responses of `shapes` (any other path is answered 404).
    public init(eventCount: Int, shapes: [StreamShape] = StreamShape.allCases) throws {
        var responses: [String: LoopbackServer.Response] = [:]
        for shape in shapes {
            switch shape {
            case .batched:
                let chunks = EventFeed.chunks(of: EventFeed.body(count: eventCount), size: Self.chunkSize)
                responses[shape.path] = .eventStream(chunks.map { .bytes($0) })
            case .perEvent:
                responses[shape.path] = .events((0..<eventCount).map { ServerSentEvent(data: Self.data(of: $0), id: "\($0)") })
            }
        }
        let routes = responses
        server = try LoopbackServer { request in
            routes[request.path] ?? .status(404)
        }
        self.eventCount = eventCount
    }

    /// The URL of the stream of `shape`.
    public func url(_ shape: StreamShape) -> URL {
        server.url(for: shape.path)
    }

    /// The endpoint of the stream of `shape`.
    public func endpoint(_ shape: StreamShape) -> Endpoint {
        Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: server.port), path: shape.path)
    }

    /// Forgets the requests the server recorded (it keeps each until taken).
    public func forgetRequests() {
        while server.takeRequest(timeout: .zero) != nil {}
    }

    /// Stops the server.
    public func stop() {
        server.stop()
    }

    /// The data line of event `index` (as `ServerSentEvent` writes it, the same bytes as
    /// ``EventFeed/event(_:)``).
    private static func data(of index: Int) -> String {
        let text = EventFeed.event(index)
        guard let start = text.range(of: "data: "), let end = text.range(of: "\n\n") else {
            preconditionFailure("The benchmark's event has no data line.")
        }
        return String(text[start.upperBound..<end.lowerBound])
    }
}

/// Keeps `value` from being optimised away.
@inline(never)
public func keep(_ value: some Any) {}

/// Why a scenario failed.
public enum ScenarioError: Error, CustomStringConvertible {
    /// The stream ended with another number of events than the server sent.
    case wrongCount(expected: Int, got: Int)
    /// The stream's status was not 200.
    case status(Int)
    /// The last event decoded was not the last one sent.
    case wrongLastEvent(Int)
    /// The scenario cannot run on this platform, for the reason given.
    case unavailable(String)

    public var description: String {
        switch self {
        case .wrongCount(let expected, let got): "expected \(expected) events, got \(got)"
        case .status(let status): "status \(status)"
        case .wrongLastEvent(let seq): "the last event was number \(seq)"
        case .unavailable(let reason): "not available here: \(reason)"
        }
    }
}
