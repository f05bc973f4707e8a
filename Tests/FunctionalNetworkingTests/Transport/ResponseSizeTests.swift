import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hostile bodies fail within seconds, with the process's peak memory bounded near the limit.
///
/// The peak is read from `/proc/self/status` (`VmHWM`, reset before each request). It is this
/// suite's own only when nothing else runs in the process: `.ci/run` runs the suite alone with
/// `FUNCTIONAL_NETWORKING_MEMORY_ALONE=1`, where the bounds are near the limit; inside the whole
/// suite, other tests' allocations count too, and the bound only rules out unbounded growth.
@Suite("Response size limit", .serialized)
struct ResponseSizeTests {
    static let mebibyte = 1_048_576
    static let alone = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_MEMORY_ALONE"] != nil
    static let sanitized = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_SANITIZER"] != nil
    /// Under a sanitizer the endless body is cut at 8 MiB instead of the 64 MiB default, and
    /// sent at about 13 MB/s instead of as fast as loopback goes: read ten times slower, an
    /// unpaced endless body queued 4.7 GB for the delegate before it could count 8 MiB, and
    /// starved every test beside it for minutes. Unpaced, at the default, it runs without one.
    static let endlessLimit = sanitized ? 8 * mebibyte : TransportPolicy.defaultMaximumResponseSize

    /// The peak growth allowed for a body cut at the 64 MiB default: the limit plus 96 MiB alone,
    /// 2 GiB beside the whole suite. Alone it measured 63-90 MiB on a quiet machine and up to
    /// 101 MiB beside another test run: what URLSession reads before the cancellation takes
    /// effect grows with the machine's load. An unlimited endless body grows without end.
    static let boundAtTheLimitMiB = alone ? 160 : 2_048

    /// Sends `request` through a transport with `limit`, under a 60 s bound, and returns the
    /// error, the seconds it took and the growth of peak resident memory in MiB.
    static func failure(of endpoint: Endpoint, limit: Int = TransportPolicy.defaultMaximumResponseSize) async -> (
        error: (any Error)?, seconds: Double, growthMiB: Int
    ) {
        let peakReset = resetPeakResidentMemory()
        let before = residentMemoryBytes() ?? 0
        let clock = ContinuousClock()
        let start = clock.now
        let send = networking(from: makeTestNetworkSession(timeout: 60, policy: TransportPolicy(maximumResponseSize: limit)).transport)
        var caught: (any Error)?
        do {
            _ = try await send(endpoint).timeout(after: .seconds(60)).value
        } catch {
            caught = error
        }
        let seconds = Double((clock.now - start).components.seconds) + Double((clock.now - start).components.attoseconds) / 1e18
        let after = (peakReset ? peakResidentMemoryBytes() : nil) ?? residentMemoryBytes() ?? 0
        return (caught, seconds, max(0, after - before) / mebibyte)
    }

    @Test func anEndlessChunkedBodyFailsAtTheLimit() async throws {
        let endless = LoopbackServer.Response(body: Data(count: 65_536)).repeated(.forever)
        let paced = Self.sanitized ? endless.throttled(bytesPerPeriod: 65_536, period: .milliseconds(5)) : endless
        let server = try LoopbackServer { _ in paced }
        defer { server.stop() }
        let outcome = await Self.failure(of: Endpoint(baseURL: server.baseURL, path: "/endless"), limit: Self.endlessLimit)
        #expect(
            outcome.error as? TransportError
                == .responseTooLarge(limit: Self.endlessLimit, url: server.url(for: "/endless").absoluteString))
        #expect(outcome.seconds < 30)
        // Without the limit the process grew without end: 2.9 GB in 18 s.
        #expect(outcome.growthMiB < Self.boundAtTheLimitMiB, "peak resident memory grew by \(outcome.growthMiB) MiB")
        Self.report("endless", outcome)
    }

    static func report(_ name: String, _ outcome: (error: (any Error)?, seconds: Double, growthMiB: Int)) {
        if ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_REPORT"] != nil {
            FileHandle.standardError.write(Data("size-limit \(name): \(outcome.seconds) s, +\(outcome.growthMiB) MiB resident\n".utf8))
        }
    }

    @Test func aGzipBombFailsCountingTheDecodedBytes() async throws {
        // 2.1 MB on the wire, 330 MB decoded.
        let bomb = GzipZeros.member(blocks: 160)
        #expect(bomb.count < 2_200_000)
        let server = try LoopbackServer { _ in
            LoopbackServer.Response(headers: [.init("Content-Encoding", "gzip"), .init("Content-Type", "application/json")], body: bomb)
        }
        defer { server.stop() }
        let outcome = await Self.failure(of: Endpoint(baseURL: server.baseURL, path: "/bomb"))
        guard case .responseTooLarge(let limit, _)? = outcome.error as? TransportError else {
            Issue.record("expected responseTooLarge, got \(String(describing: outcome.error))")
            return
        }
        #expect(limit == TransportPolicy.defaultMaximumResponseSize)
        #expect(outcome.seconds < 30)
        #expect(outcome.growthMiB < Self.boundAtTheLimitMiB, "peak resident memory grew by \(outcome.growthMiB) MiB")
        Self.report("gzip bomb", outcome)
    }

    @Test func aDeclaredLengthOverTheLimitFailsBeforeTheBody() async throws {
        // 200 MiB announced with Content-Length.
        let server = try LoopbackServer { _ in LoopbackServer.Response(body: Data(count: Self.mebibyte)).repeated(.times(200)) }
        defer { server.stop() }
        let outcome = await Self.failure(of: Endpoint(baseURL: server.baseURL, path: "/big"))
        #expect(outcome.error is TransportError)
        #expect(outcome.seconds < 30)
        // Nothing of the body is read: alone, measured 1-8 MiB.
        #expect(outcome.growthMiB < (Self.alone ? 32 : 2_048), "peak resident memory grew by \(outcome.growthMiB) MiB")
        Self.report("declared 200 MiB", outcome)
    }

    @Test func aBodyAtTheLimitArrivesAndOneByteMoreFails() async throws {
        let server = try LoopbackServer { request in
            .text(String(repeating: "x", count: request.path == "/at" ? 1_000 : 1_001))
        }
        defer { server.stop() }
        let transport = makeTestNetworkSession(policy: TransportPolicy(maximumResponseSize: 1_000)).transport
        let (data, _) = try await transport(URLRequest(url: server.url(for: "/at")))
        #expect(data.count == 1_000)
        await #expect(throws: TransportError.self) { _ = try await transport(URLRequest(url: server.url(for: "/over"))) }
    }

    @Test func anEndpointsLimitOverridesTheTransports() async throws {
        let server = try LoopbackServer { _ in .text(String(repeating: "x", count: 5_000)) }
        defer { server.stop() }
        let send = networking(from: makeTestNetworkSession(policy: TransportPolicy(maximumResponseSize: 1_000)).transport)
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/report")
        await #expect(throws: TransportError.self) { _ = try await send(endpoint).value }
        let data = try await send(endpoint.with(maximumResponseSize: 10_000)).value
        #expect(data.count == 5_000)
    }

    @Test func aHeadResponseMayDeclareAnyLength() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Response(body: Data(count: Self.mebibyte)).repeated(.times(200)) }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/big"))
        request.httpMethod = "HEAD"
        let (_, response) = try await makeTestSession().transport(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func theGzipStreamsAreWellFormed() {
        #expect(GzipZeros.block.count == 13_012)
        #expect(CRC32.ofZeros(count: 10_000) == CRC32.of([UInt8](repeating: 0, count: 10_000)))
        #expect(CRC32.of(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
