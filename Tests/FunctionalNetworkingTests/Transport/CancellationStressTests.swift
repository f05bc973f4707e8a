import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests cancelled at random moments from before they start to after they complete, against
/// a fast local server, through every way a request can be cancelled, on the sessions users
/// make: `URLSession.shared` and sessions from `.default` and `.ephemeral`, each with its URL
/// cache, and one without a cache. None may crash the process (a test that crashed ends the run), none may hang (a
/// watchdog ends the process if one does), and each ends exactly once, with its answer or a
/// cancellation.
@Suite("Cancellation stress")
struct CancellationStressTests {
    /// Requests per way of cancelling: `FUNCTIONAL_NETWORKING_CANCELLATION_STRESS` when set
    /// (`.ci/run` runs 10,000 on its own), else 1,000.
    static let count = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_CANCELLATION_STRESS"].flatMap { Int($0) } ?? 1_000

    /// How a request is cancelled.
    enum Way: String, CaseIterable, CustomTestStringConvertible {
        case futureCancel, taskCancel, timeoutComposer, cancellationScope, deduplicationWaiterLeaving, download
        case directFutureCancel, directTimeout
        var testDescription: String { rawValue }
    }

    /// The sessions users make, three with a URL cache and one without, taken in turn.
    static let sessions: [URLSession] = [
        URLSession.shared, URLSession(configuration: .default), URLSession(configuration: .ephemeral), makeTestSession(),
    ]

    /// The network session standing for each of ``sessions``, for stacks.
    static let networkSessions = [
        NetworkSession.shared, NetworkSession(configuration: .default), NetworkSession(configuration: .ephemeral), makeTestNetworkSession(),
    ]

    /// A fast server; half its answers may be cached (`max-age`), so that URL caches answer
    /// some requests too.
    static func makeServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            let body = Data(repeating: UInt8(ascii: "x"), count: request.path.hasPrefix("/large") ? 65_536 : 16)
            let cacheable = request.path.hasSuffix("cached")
            return LoopbackServer.Response(headers: cacheable ? [.init("Cache-Control", "max-age=600")] : [], body: body)
        }
    }

    /// A moment between 0 and 1 ms after the request starts, or none at all for one in four.
    static func pause(_ index: Int) async throws {
        guard index % 4 != 0 else { return }
        try await Task.sleep(nanoseconds: UInt64.random(in: 0...1_000) * 1_000)
    }

    @Test(arguments: Way.allCases)
    func requestsCancelledAtRandomMomentsNeitherCrashNorHangAndEachEndsOnce(_ way: Way) async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let outcomes = StressOutcomes()
        try await withWatchdog(seconds: 900, "\(Self.count) requests cancelled by \(way)") {
            switch way {
            case .futureCancel: try await Self.cancelFutures(server, outcomes)
            case .taskCancel: try await Self.cancelTasks(server, outcomes)
            case .timeoutComposer: try await Self.timeOut(server, outcomes)
            case .cancellationScope: try await Self.cancelInScope(server, outcomes)
            case .deduplicationWaiterLeaving: try await Self.leaveSharedCalls(server, outcomes)
            case .download: try await Self.cancelDownloads(server, outcomes)
            case .directFutureCancel: try await Self.cancelDirectFutures(server, outcomes)
            case .directTimeout: try await Self.timeOutDirectly(server, outcomes)
            }
        }
        #expect(outcomes.unexpected.isEmpty, "\(outcomes.unexpected.prefix(3))")
        #expect(outcomes.ended == outcomes.started)
        #expect(outcomes.cancelled > 0)
    }

    static func path(_ index: Int) -> String {
        ["/a", "/a-cached", "/large", "/large-cached"][index % 4]
    }

    static func cancelFutures(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        let sends = sessions.map { networking(from: $0.transport) }
        for index in 0..<count {
            let future = sends[index % sends.count](Endpoint(baseURL: server.baseURL, path: path(index)))
            outcomes.started += 1
            try await pause(index)
            future.cancel()
            outcomes.record(await Result { try await future.timeout(after: .seconds(60)).value })
        }
    }

    /// The direct path (no task): futures of `networking(with:)` stacks whose composers need
    /// none, cancelled at random moments.
    static func cancelDirectFutures(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        let sends = networkSessions.map { $0.networking(with: .numbered(), .timeout(after: .seconds(60)), .validatingStatus()) }
        for index in 0..<count {
            let future = sends[index % sends.count](Endpoint(baseURL: server.baseURL, path: path(index)))
            outcomes.started += 1
            try await pause(index)
            future.cancel()
            outcomes.record(await Result { try await future.timeout(after: .seconds(60)).value })
        }
    }

    /// The direct path's time limits, from 0 to 1 ms, expiring before, during and after requests.
    static func timeOutDirectly(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        let sends = (0..<9).map { step in
            networkSessions[step % networkSessions.count].networking(with: .timeout(after: .microseconds(step * 125)))
        }
        for index in 0..<count {
            let future = sends[index % sends.count](Endpoint(baseURL: server.baseURL, path: path(index)))
            outcomes.started += 1
            outcomes.record(await Result { try await future.timeout(after: .seconds(60)).value })
        }
    }

    static func cancelTasks(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        try await cancelEach(through: sessions.map(\.transport), server, outcomes) { task in task.cancel() }
    }

    /// Sends each request in a task of its own through the transports in turn, and after the
    /// pause calls `cancel` with that task.
    static func cancelEach(
        through transports: [Transport], _ server: LoopbackServer, _ outcomes: StressOutcomes,
        _ cancel: (Task<(Data, URLResponse), any Error>) -> Void
    ) async throws {
        for index in 0..<count {
            let request = URLRequest(url: server.url(for: path(index)))
            let transport = transports[index % transports.count]
            let task = Task { try await transport(request) }
            outcomes.started += 1
            try await pause(index)
            cancel(task)
            outcomes.record(await task.result)
        }
    }

    static func timeOut(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        // Limits from 0 to 1 ms, so that some expire before, during and after the request.
        let transports = (0..<9).map { step in
            networkSessions[step % networkSessions.count].transport(with: .timeout(after: .microseconds(step * 125)))
        }
        for index in 0..<count {
            let request = URLRequest(url: server.url(for: path(index)))
            outcomes.started += 1
            outcomes.record(await Result { try await transports[index % transports.count](request) })
        }
    }

    static func cancelInScope(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        let scope = CancellationScope()
        try await cancelEach(through: networkSessions.map { $0.transport(with: .cancellable(in: scope)) }, server, outcomes) { _ in
            scope.cancelAll()
        }
    }

    static func leaveSharedCalls(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        let transports = networkSessions.map { $0.transport(with: .deduplicated()) }
        for index in 0..<count {
            let request = URLRequest(url: server.url(for: path(index)))
            let transport = transports[index % transports.count]
            let first = Task { try await transport(request) }
            let second = Task { try await transport(request) }
            outcomes.started += 2
            try await pause(index)
            // The caller that makes the call, the one that waits for it, or both leave.
            switch index % 3 {
            case 0: second.cancel()
            case 1: first.cancel()
            default:
                first.cancel()
                second.cancel()
            }
            outcomes.record(await first.result)
            outcomes.record(await second.result)
        }
    }

    static func cancelDownloads(_ server: LoopbackServer, _ outcomes: StressOutcomes) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fn-stress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let transports = sessions.map(\.transport)
        var delivered: Set<String> = []
        for index in 0..<count {
            let request = Endpoint(baseURL: server.baseURL, path: path(index))
            let transport = transports[index % transports.count]
            let name = "file-\(index)"
            let destination = folder.appendingPathComponent(name)
            let task = Task { try await download(request, to: destination, through: transport) }
            outcomes.started += 1
            try await pause(index)
            task.cancel()
            let result = await task.result
            if case .success = result { delivered.insert(name) }
            outcomes.record(result)
        }
        // Exactly the delivered files: no temporary file is left by any cancellation.
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names == delivered)
    }
}

/// Counts kept by the test's own task only.
final class StressOutcomes {
    var started = 0
    var ended = 0
    var cancelled = 0
    var unexpected: [String] = []

    func record<Value>(_ result: Result<Value, any Error>) {
        ended += 1
        switch result {
        case .success: break
        case .failure(is CancellationError), .failure(is TimeoutError): cancelled += 1
        case .failure(let error): unexpected.append("\(error)")
        }
    }
}

extension Result where Failure == any Error {
    /// The result of `body`, thrown or not.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
