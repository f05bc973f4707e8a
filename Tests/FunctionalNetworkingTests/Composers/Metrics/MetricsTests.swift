import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Metrics")
struct MetricsTests {

    private func request(_ path: String = "/products") -> URLRequest {
        URLRequest(url: URL(string: "https://shop.test\(path)")!)
    }

    /// A transport that takes `X-Millis` milliseconds on `clock` and answers `X-Bytes` bytes
    /// with status `X-Status`.
    private func timed(on clock: TestClock) -> Transport {
        stubTransport { request in
            let millis = Int(request.value(forHTTPHeaderField: "X-Millis") ?? "0") ?? 0
            let bytes = Int(request.value(forHTTPHeaderField: "X-Bytes") ?? "0") ?? 0
            let status = Int(request.value(forHTTPHeaderField: "X-Status") ?? "200") ?? 200
            clock.advance(by: .milliseconds(millis))
            return (Data(repeating: 1, count: bytes), stubResponse(for: request, status: status))
        }
    }

    private func request(millis: Int, bytes: Int = 0, status: Int = 200) -> URLRequest {
        var request = request()
        request.setValue("\(millis)", forHTTPHeaderField: "X-Millis")
        request.setValue("\(bytes)", forHTTPHeaderField: "X-Bytes")
        request.setValue("\(status)", forHTTPHeaderField: "X-Status")
        return request
    }

    @Test func percentilesAreExactNearestRanks() async throws {
        let clock = TestClock()
        let recorder = MetricsRecorder()
        let transport = NetworkSession(sending: timed(on: clock)).transport(with: .metrics(into: recorder, clock: clock))
        for millis in (1...100).shuffled() {
            _ = try await transport(request(millis: millis, bytes: 10))
        }
        let summary = recorder.summary
        #expect(summary.count == 100)
        #expect(summary.failures == 0)
        #expect(summary.inFlight == 0)
        #expect(summary.p50 == .milliseconds(50))
        #expect(summary.p90 == .milliseconds(90))
        #expect(summary.p99 == .milliseconds(99))
        #expect(summary.bytes == 1000)
    }

    @Test func percentilesOfAFewRequestsRoundUpToARecordedDuration() async throws {
        let clock = TestClock()
        let recorder = MetricsRecorder()
        let transport = NetworkSession(sending: timed(on: clock)).transport(with: .metrics(into: recorder, clock: clock))
        for millis in [40, 10, 30, 20] {
            _ = try await transport(request(millis: millis))
        }
        #expect(recorder.summary.p50 == .milliseconds(20))
        #expect(recorder.summary.p90 == .milliseconds(40))
        #expect(recorder.summary.p99 == .milliseconds(40))
    }

    @Test func failuresAreErrorsAndServerErrorsButNotCancellationsOrClientErrors() async throws {
        let clock = TestClock()
        let recorder = MetricsRecorder()
        let failing = NetworkSession(sending: stubTransport { _ in throw URLError(.notConnectedToInternet) }).transport(
            with: .metrics(into: recorder))
        let cancelled = NetworkSession(sending: stubTransport { _ in throw CancellationError() }).transport(with: .metrics(into: recorder))
        let transport = NetworkSession(sending: timed(on: clock)).transport(with: .metrics(into: recorder, clock: clock))
        await #expect(throws: URLError.self) { try await failing(request()) }
        await #expect(throws: CancellationError.self) { try await cancelled(request()) }
        _ = try await transport(request(millis: 5, status: 503))
        _ = try await transport(request(millis: 5, status: 404))
        _ = try await transport(request(millis: 5, status: 200))
        #expect(recorder.summary.count == 5)
        #expect(recorder.summary.failures == 2)
    }

    @Test func theSinkGetsAStartAndAnEndWithDurationStatusBytesAndRedactedURL() async throws {
        let clock = TestClock()
        let events = Collected<MetricsEvent>()
        let transport = NetworkSession(sending: timed(on: clock)).transport(
            with: .numbered(), .metrics(to: events.append, redaction: .default.redactingQueryItems("token"), clock: clock)
        )
        var request = request(millis: 120, bytes: 64, status: 201)
        request.url = URL(string: "https://shop.test/orders?token=s3cr3t")
        _ = try await transport(request)
        let values = events.values
        try #require(values.count == 2)
        guard case .started(let method, let url, let id, let number) = values[0], case .finished(let metrics) = values[1] else {
            Issue.record("Expected a start and an end, got \(values)")
            return
        }
        #expect(method == "GET")
        #expect(url == "https://shop.test/orders?token=<redacted>")
        #expect(number == 1)
        #expect(metrics.requestID == id)
        #expect(metrics.url == url)
        #expect(metrics.duration == .milliseconds(120))
        #expect(metrics.status == 201)
        #expect(metrics.bytes == 64)
        #expect(metrics.error == nil)
        #expect(!metrics.isFailure)
    }

    @Test func theSinkGetsTheRedactedErrorOfAFailure() async throws {
        let events = Collected<MetricsEvent>()
        let transport = NetworkSession(sending: stubTransport { _ in throw URLError(.timedOut) }).transport(
            with: .metrics(to: events.append))
        await #expect(throws: URLError.self) { try await transport(request()) }
        guard case .finished(let metrics) = events.values.last else {
            Issue.record("No end event")
            return
        }
        #expect(metrics.error?.hasPrefix("URLError -1001") == true)
        #expect(metrics.isFailure)
        #expect(metrics.bytes == 0)
    }

    @Test func aRequestIsInFlightUntilItEnds() async throws {
        let recorder = MetricsRecorder()
        let inside = stubTransport { request in
            (Data("\(recorder.summary.inFlight)".utf8), stubResponse(for: request))
        }
        let (data, _) = try await NetworkSession(sending: inside).transport(with: .metrics(into: recorder))(request())
        #expect(String(decoding: data, as: UTF8.self) == "1")
        #expect(recorder.summary.inFlight == 0)
    }

    @Test func aBoundedRecorderStillSummarisesEveryRequest() {
        let recorder = MetricsRecorder(capacity: 10)
        for millis in 1...1000 {
            recorder.record(RequestMetrics(method: "GET", url: "/", duration: .milliseconds(millis), bytes: 1))
        }
        let summary = recorder.summary
        #expect(summary.count == 1000)
        #expect(summary.bytes == 1000)
        #expect(summary.p50.map { (Duration.milliseconds(1)...Duration.milliseconds(1000)).contains($0) } == true)
    }

    @Test func resetForgetsFinishedRequests() {
        let recorder = MetricsRecorder()
        recorder.record(RequestMetrics(method: "GET", url: "/", duration: .seconds(1), bytes: 3))
        recorder.reset()
        #expect(recorder.summary == MetricsSummary(count: 0, failures: 0, p50: nil, p90: nil, p99: nil, bytes: 0))
    }

    @Test func theDescriptionIsASmallTable() {
        let summary = MetricsSummary(
            count: 120, failures: 2, inFlight: 1,
            p50: .milliseconds(48), p90: .milliseconds(130), p99: .milliseconds(1250), bytes: 524_288
        )
        #expect(
            summary.description == """
                | requests | failures | in flight |   p50 |    p90 |    p99 |  bytes |
                |      120 |        2 |         1 | 48 ms | 130 ms | 1.25 s | 524288 |
                """)
        #expect(MetricsRecorder().summary.description.hasSuffix("|        0 |        0 |         0 |   - |   - |   - |     0 |"))
    }

    @Test func theDirectFormsMeasureAsTheAwaitedOnes() async throws {
        let base = stubTransport { request in
            switch request.url?.path {
            case "/fails": throw URLError(.timedOut)
            case "/busy": return (Data("busy".utf8), stubResponse(for: request, status: 503))
            default: return (Data("hello".utf8), stubResponse(for: request))
            }
        }
        var events: [[String]] = []
        var summaries: [String] = []
        for session in [NetworkSession(sending: base), directNetworkSession(sending: base)] {
            let collected = Collected<MetricsEvent>()
            let recorder = MetricsRecorder()
            let toSink = session.networking(with: .metrics(to: collected.append, clock: TestClock()), .validatingStatus())
            let intoRecorder = session.networking(with: .metrics(into: recorder), .validatingStatus())
            for path in ["/products", "/busy", "/fails"] {
                let endpoint = Endpoint(baseURL: URL(string: "https://shop.test")!, path: path)
                _ = await toSink(endpoint).result(within: .seconds(30))
                _ = await intoRecorder(endpoint).result(within: .seconds(30))
            }
            events.append(collected.values.map { "\($0)" })
            summaries.append("\(recorder.summary.count) \(recorder.summary.failures) \(recorder.summary.bytes)")
        }
        #expect(events[0].count == 6)
        #expect(events[0] == events[1])
        #expect(summaries[0] == summaries[1])
    }
}
