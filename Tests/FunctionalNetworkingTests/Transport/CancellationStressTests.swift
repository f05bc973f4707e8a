import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests cancelled at random moments around their completion, against a fast local server:
/// none may deadlock the process (a watchdog ends the run if one does) and every one ends.
@Suite("Cancellation stress")
struct CancellationStressTests {
    /// 10,000, or 2,000 under the sanitizers, which slow each request tenfold.
    static let count = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_SANITIZER"] == nil ? 10_000 : 2_000

    @Test func requestsCancelledAroundCompletionNeverDeadlock() async throws {
        let server = try LoopbackServer { _ in .json(#"{"ok":true}"#) }
        defer { server.stop() }
        let transport = makeTestSession().transport
        let request = URLRequest(url: server.url(for: "/fast"))
        let outcomes = Outcomes()
        try await withWatchdog(seconds: 600, "\(Self.count) cancelled requests") {
            var generator = SystemRandomNumberGenerator()
            for index in 0..<Self.count {
                let task = Task { try await transport(request) }
                // Spread the cancellations over the request's life: before it starts, while it
                // is in flight, and as it completes (a loopback request takes about 100-500 us).
                let wait = UInt64.random(in: 0...600, using: &generator)
                if index % 4 != 0 { try await Task.sleep(nanoseconds: wait * 1_000) }
                task.cancel()
                switch await task.result {
                case .success: outcomes.completed += 1
                case .failure(let error) where error is CancellationError: outcomes.cancelled += 1
                case .failure(let error): Issue.record("request \(index) failed with \(error)")
                }
            }
        }
        #expect(outcomes.completed + outcomes.cancelled == Self.count)
        #expect(outcomes.cancelled > 0)
    }

    @Test func futuresCancelledAroundCompletionNeverDeadlock() async throws {
        let server = try LoopbackServer { _ in .json(#"{"ok":true}"#) }
        defer { server.stop() }
        let send = networking(from: makeTestSession().transport)
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/fast")
        try await withWatchdog(seconds: 600, "\(Self.count / 5) cancelled futures") {
            for _ in 0..<(Self.count / 5) {
                let future = send(endpoint)
                try await Task.sleep(nanoseconds: UInt64.random(in: 0...400) * 1_000)
                future.cancel()
                let waited = Future { try await future.value }.timeout(after: .seconds(30))
                switch await waited.result(awaiting: ()) {
                case .success, .failure(is CancellationError): break
                case .failure(let error): Issue.record("a cancelled future failed with \(error)")
                }
            }
        }
    }
}

/// Counts from the test's own task only.
final class Outcomes {
    var completed = 0
    var cancelled = 0
}

extension Future {
    /// Awaits the future and gives its result, thrown or not.
    func result(awaiting _: Void) async -> Result<Value, any Error> {
        do { return .success(try await value) } catch { return .failure(error) }
    }
}
