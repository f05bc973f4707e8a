import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed body read as it arrives is never held whole: the process's peak resident memory
/// (`VmHWM` in `/proc/self/status`, reset before each test) stays near where it started.
///
/// The peak is the test's own only when nothing else runs in the process: `.ci/run` runs the
/// gibibyte alone with `FUNCTIONAL_NETWORKING_MEMORY_ALONE=1`, where the bounds are tight;
/// inside the whole suite other tests' allocations count too, and the bounds only rule out
/// holding the body.
@Suite("Streams and memory: a body read as it arrives is never held whole", .serialized)
struct StreamMemoryTests {
    static let mebibyte = 1 << 20
    static let alone = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_MEMORY_ALONE"] != nil
    static let sanitized = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_SANITIZER"] != nil

    /// The size of the big stream: a gibibyte alone; beside the other suites 256 MiB, so that it
    /// keeps both cores busy a short time; 64 MiB under a sanitizer, where a gibibyte read ten
    /// times slower would starve the tests beside it.
    static let bigMiB = sanitized ? 64 : alone ? 1_024 : 256

    /// The pause between two mebibytes of the big stream. Alone, 4 ms (about 250 MB/s): sent as
    /// fast as loopback goes (about 0.8 GB/s), the reader fell 32 MiB behind in 2 of 22 runs alone,
    /// and its stream ended with fellBehind, when the server's and URLSession's threads held both
    /// cores for some 40 ms; paced, it may lose them for four times as long (it still fell behind
    /// in 3 of 19 runs, each right after a build, on a machine shared with other builds). 20 ms
    /// under a sanitizer; none beside the other suites, where falling behind is allowed (below).
    static let bigPace: Duration? = sanitized ? .milliseconds(20) : alone ? .milliseconds(4) : nil

    /// The peak growth allowed: tight alone; beside the other suites, whose memory counts too,
    /// 2 GiB, as in ResponseSizeTests.
    static let besideOthersBoundMiB = 2_048

    /// The peak growth allowed while the big stream is read: 64 MiB alone.
    static let bigBoundMiB = alone ? 64 : besideOthersBoundMiB

    @Test("A gibibyte (alone; 256 MiB beside other suites) read chunk by chunk keeps the process within 64 MiB of where it started")
    func aGibibyteReadChunkByChunk() async throws {
        let total = Self.bigMiB * Self.mebibyte
        let body = LoopbackServer.Response(body: Data(count: Self.mebibyte)).repeated(.times(Self.bigMiB))
        let paced = Self.bigPace.map { body.throttled(bytesPerPeriod: Self.mebibyte, period: $0) } ?? body
        let server = try LoopbackServer { _ in paced }
        defer { server.stop() }
        let transport = makeTestNetworkSession(timeout: 120).transport

        let peakReset = resetPeakResidentMemory()
        let before = residentMemoryBytes() ?? 0
        let started = ContinuousClock.now
        var received = 0
        var chunks = 0
        var fellBehind = false
        do {
            let response = try await stream(Endpoint(baseURL: server.url(for: "/export")), through: transport)
            for try await chunk in response.body {
                received += chunk.count
                chunks += 1
                if received >= total { break }
            }
        } catch {
            // Beside the other suites, about 150 tests share the two threads that run tasks, and
            // the reader may wait its turn long enough to fall 32 MiB behind loopback (in 2 of 3
            // runs of the Streams suites, even at 100 MB/s): on Linux the stream then ends with
            // fellBehind, what a starved reader gets, holding no more than that. Alone, it reads
            // the gibibyte.
            guard !Self.alone, case .fellBehind? = error as? StreamError else { throw error }
            fellBehind = true
        }
        let seconds = Self.seconds(started.duration(to: .now))
        let peak = (peakReset ? peakResidentMemoryBytes() : nil) ?? residentMemoryBytes() ?? 0
        let growthMiB = max(0, peak - before) / Self.mebibyte

        #expect(received == total || fellBehind)
        #expect(growthMiB < Self.bigBoundMiB, "peak resident memory grew by \(growthMiB) MiB")
        Self.report(
            "stream \(Self.bigMiB) MiB, \(received / Self.mebibyte) MiB read in \(chunks) chunks\(fellBehind ? " (fell behind)" : ""): "
                + "\(seconds) s, +\(growthMiB) MiB resident")
    }

    /// The line limit of the endless line: 8 MiB.
    static let lineLimit = 8 << 20

    @Test("An endless line fails with lineTooLong, with the process's peak near the line limit")
    func anEndlessLineHoldsAboutTheLimit() async throws {
        // Paced at about 16 MB/s alone, 8 MB/s beside the other suites, so that the line limit,
        // not a reader that fell 32 MiB behind while it waited for a thread, ends it.
        let every: Duration = .milliseconds(Self.alone ? 1 : 2)
        let server = try LoopbackServer { _ in
            .stream([.text("data: "), .repeating(Data(repeating: UInt8(ascii: "x"), count: 16 << 10), every: every)])
        }
        defer { server.stop() }
        let transport = makeTestNetworkSession(timeout: 120).transport

        let peakReset = resetPeakResidentMemory()
        let before = residentMemoryBytes() ?? 0
        let started = ContinuousClock.now
        let response = try await stream(
            Endpoint(baseURL: server.url(for: "/events")), through: transport, limits: StreamLimits(maximumLineLength: Self.lineLimit))
        await #expect(throws: StreamError.lineTooLong(limit: Self.lineLimit)) {
            for try await _ in response.body.lines {}
        }
        let seconds = Self.seconds(started.duration(to: .now))
        let peak = (peakReset ? peakResidentMemoryBytes() : nil) ?? residentMemoryBytes() ?? 0
        let growthMiB = max(0, peak - before) / Self.mebibyte

        // The line is held as it grows (up to the limit, in an array that doubles), and what the
        // reader has not taken yet: alone, about twice the limit at most.
        #expect(
            growthMiB < (Self.alone ? 2 * (Self.lineLimit / Self.mebibyte) + 16 : Self.besideOthersBoundMiB),
            "peak resident memory grew by \(growthMiB) MiB")
        try await waitUntil(within: .seconds(30), "the server saw the connection close") { server.inFlightRequestCount == 0 }
        withExtendedLifetime(response) {}
        Self.report("endless line, limit \(Self.lineLimit / Self.mebibyte) MiB: \(seconds) s, +\(growthMiB) MiB resident")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func report(_ line: String) {
        if ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_REPORT"] != nil {
            FileHandle.standardError.write(Data("stream memory: \(line)\n".utf8))
        }
    }
}
