import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams cancelled at random moments on the sessions users make: `NetworkSession.shared` (on
/// `URLSession.shared`'s configuration, with `URLCache.shared`) and sessions from `.default` and
/// `.ephemeral`, each with its URL cache. Before the head arrives, while chunks wait, and as
/// the reader leaves its loop.
@Suite("Streams cancelled at random moments on sessions with URL caches")
struct StreamCancellationStressTests {
    /// How each stream is stopped.
    enum Stop: CaseIterable, Sendable {
        /// The reading task is cancelled 0–3 ms after it starts (before or after the head).
        case cancelTask
        /// The reader leaves its loop after the first chunk, still holding the response.
        case leaveLoop
        /// An event feed's reading task is cancelled 0–3 ms after it starts.
        case cancelEvents
    }

    static let sessions: [(String, @Sendable () -> NetworkSession)] = [
        ("NetworkSession.shared", { NetworkSession.shared }),
        ("default", { NetworkSession(configuration: .default) }),
        ("ephemeral", { NetworkSession(configuration: .ephemeral) }),
    ]

    @Test(
        "Every stream ends once, with no crash or hang, and every server sees its client go",
        .timeLimit(.minutes(3)), arguments: 0..<3, Stop.allCases)
    func cancelledAtRandom(sessionIndex: Int, stop: Stop) async throws {
        let (name, makeSession) = Self.sessions[sessionIndex]
        let session = makeSession()
        let drip = LoopbackServer.Response.eventStream([
            .event(ServerSentEvent(data: "first")),
            .repeating(Data("data: more\n\n".utf8), every: .milliseconds(5)),
        ])
        let server = try LoopbackServer { _ in drip }
        defer { server.stop() }
        let endpoint = Endpoint(baseURL: server.url(for: "/feed"))
        // A tenth under a sanitizer, as the other stress suites: it runs ten times slower there.
        let count = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_SANITIZER"] == nil ? 200 : 20

        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                if index >= 20 { _ = try await group.next() }
                group.addTask {
                    switch stop {
                    case .cancelTask:
                        let reading = Task {
                            let response = try await stream(endpoint, through: session.transport)
                            for try await _ in response.body {}
                        }
                        try? await Task.sleep(for: .microseconds(Int.random(in: 0...3_000)))
                        reading.cancel()
                        return await Self.endedByCancellation(reading.result)
                    case .leaveLoop:
                        let response = try await stream(endpoint, through: session.transport)
                        for try await _ in response.body { break }
                        return withExtendedLifetime(response) { true }
                    case .cancelEvents:
                        let events = eventStreaming(from: session.transport)
                        let reading = Task {
                            for try await _ in events(endpoint) {}
                        }
                        try? await Task.sleep(for: .microseconds(Int.random(in: 0...3_000)))
                        reading.cancel()
                        return await Self.endedByCancellation(reading.result)
                    }
                }
            }
            var outcomes: [Bool] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }

        #expect(outcomes.allSatisfy { $0 }, "\(name), \(stop): a stream ended otherwise than by its cancellation")
        try await waitUntil(within: .seconds(60), "every server saw its client go (\(name), \(stop))") {
            server.inFlightRequestCount == 0
        }
    }

    /// Whether a reading ended as a cancelled one may: with `CancellationError`, or as a normal
    /// end when the cancellation met the sequence between two reads.
    static func endedByCancellation(_ result: Result<Void, any Error>) -> Bool {
        switch result {
        case .success: true
        case .failure(let error): error is CancellationError
        }
    }
}
