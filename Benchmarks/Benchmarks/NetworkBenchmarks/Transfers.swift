// Benchmark 11: 100 MB uploads and downloads over loopback, the package against raw URLSession,
// time and peak resident memory side by side.

import Benchmark
import BenchmarkSupport
import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The size of every transfer of benchmark 11: 100 MiB, sent as 100 blocks of 1 MiB.
let transferMebibytes = 100

/// 11. One 100 MiB transfer per operation, to and from a `LoopbackServer` in the same process
///    that holds neither body (it digests the uploads and repeats a 1 MiB block for the
///    downloads), so that the process's memory is the client's.
///
///    - Upload of a file: ours sends an `Endpoint` with `with(bodyFromFileAt:)` through
///      `networking(from:)` over the stack of 8 (`Stack`); raw URLSession sends
///      `upload(for:fromFile:)`.
///    - Download to a file: ours calls `download(_:to:through:)` over the same stack; raw
///      URLSession calls `download(for:)` and moves the file it wrote to the destination
///      (removing the previous one first: Foundation's move does not replace); and,
///      to show what holding the body costs, `data(for:)`, which keeps it in memory.
func transferBenchmarks() {
    transferBenchmark("11-upload-100MiB.FunctionalNetworking") { running in
        let upload = Endpoint(method: .put, baseURL: running.server.baseURL, path: "/upload")
            .with(bodyFromFileAt: running.source)
        blackHole(try await running.send(upload).value)
        try running.checkUpload()
    }
    transferBenchmark("11-upload-100MiB.URLSession") { running in
        var request = URLRequest(url: running.server.url(for: "/upload"))
        request.httpMethod = "PUT"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await running.session.upload(for: request, fromFile: running.source)
        try TransferFixture.check(response)
        blackHole(data)
        try running.checkUpload()
    }

    transferBenchmark("11-download-100MiB.FunctionalNetworking") { running in
        let response = try await download(
            Endpoint(baseURL: running.server.baseURL, path: "/download"), to: running.destination, through: running.transport)
        try TransferFixture.check(response)
        try running.checkDownload()
    }
    transferBenchmark("11-download-100MiB.URLSession") { running in
        let (temporary, response) = try await running.session.download(for: URLRequest(url: running.server.url(for: "/download")))
        try TransferFixture.check(response)
        // The file URLSession wrote, moved to the destination as ours is (rename(2), replacing).
        try? FileManager.default.removeItem(at: running.destination)
        try FileManager.default.moveItem(at: temporary, to: running.destination)
        try running.checkDownload()
    }
    transferBenchmark("11-download-100MiB.URLSessionData") { running in
        let (data, response) = try await running.session.data(for: URLRequest(url: running.server.url(for: "/download")))
        try TransferFixture.check(response)
        guard data.count == transferMebibytes * TransferFixture.mebibyte else { throw FixtureError.wrongSize(data.count) }
        blackHole(data)
    }
}

/// A benchmark of 11 with a fixture of its own (made by its setup, removed by its teardown):
/// each operation is one transfer; the measurement holds only the transfer and the checks of
/// its size.
func transferBenchmark(_ name: String, _ transfer: @escaping @Sendable (TransferFixture.Running) async throws -> Void) {
    let fixture = TransferFixture()
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, .peakMemoryResidentDelta, .throughput],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            scalingFactor: .one,
            maxDuration: .seconds(20),
            maxIterations: 10
        ),
        closure: { benchmark in
            let running = try fixture.current()
            try await running.forgetRecordedRequests()
            benchmark.startMeasurement()
            try await transfer(running)
        },
        setup: { try fixture.start() },
        teardown: { fixture.stop() }
    )
}

/// A server that digests uploads and answers downloads with 100 MiB made of one 1 MiB block,
/// a 100 MiB file to upload, a destination for downloads, a session configured as benchmark 8's
/// and our stack over it.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class TransferFixture: @unchecked Sendable {
    static let mebibyte = 1_048_576

    /// What a started fixture holds.
    struct Running: Sendable {
        let server: LoopbackServer
        let session: URLSession
        /// Our side: the session's `transport` in the eight composers of ``Stack``.
        let transport: Transport
        let send: @Sendable (Endpoint) -> Future<Data>
        /// The file every upload sends, and its digest.
        let source: URL
        let sourceDigest: LoopbackServer.BodyDigest
        /// Where every download goes (replaced each time).
        let destination: URL

        /// Fails unless the server received the whole file, byte for byte. Not measured apart:
        /// the server has digested the body before it answered.
        func checkUpload() throws {
            guard let received = server.takeRequest(timeout: .seconds(10)), received.bodyDigest == sourceDigest else {
                throw FixtureError.uploadNotReceived
            }
        }

        /// Fails unless the destination holds the whole body.
        func checkDownload() throws {
            let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber
            guard size?.intValue == transferMebibytes * TransferFixture.mebibyte else {
                throw FixtureError.wrongSize(size?.intValue ?? -1)
            }
        }

        /// Drops what the server recorded and has not been checked.
        func forgetRecordedRequests() async throws {
            while await server.takeRequest(timeout: .zero) != nil {}
        }
    }

    private let lock = NSLock()
    private var running: Running?

    /// Writes the file, starts the server, makes the session and our stack over it.
    func start() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fn-transfers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("upload.bin")
        let block = Data((0..<Self.mebibyte).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) })
        var digest = LoopbackServer.BodyDigest()
        guard FileManager.default.createFile(atPath: source.path, contents: nil) else { throw FixtureError.cannotWrite(source.path) }
        let handle = try FileHandle(forWritingTo: source)
        for _ in 0..<transferMebibytes {
            try handle.write(contentsOf: block)
            digest.update(with: block)
        }
        try handle.close()

        let download = LoopbackServer.Response(body: block).repeated(.times(transferMebibytes))
        let server = try LoopbackServer(bodyRecording: .digestOnly) { request in
            request.method == "PUT" ? .status(201) : download
        }
        let session = URLSession(configuration: LoopbackFixture.configuration())
        let origin = Origin(scheme: "http", host: "127.0.0.1", port: server.port)
        let transport = NetworkSession(sending: session.transport).transport(with: Stack.composers(authenticating: origin))
        let started = Running(
            server: server, session: session, transport: transport, send: networking(from: transport),
            source: source, sourceDigest: digest, destination: folder.appendingPathComponent("download.bin"))
        lock.withLock { running = started }
    }

    /// Stops the server, invalidates the session and removes the files.
    func stop() {
        let stopped = lock.withLock {
            defer { running = nil }
            return running
        }
        stopped?.session.invalidateAndCancel()
        stopped?.server.stop()
        if let folder = stopped?.source.deletingLastPathComponent() {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The started fixture.
    func current() throws -> Running {
        guard let running = lock.withLock({ running }) else {
            throw FixtureError.notStarted
        }
        return running
    }

    /// Fails unless `response` is a 2xx HTTP response.
    static func check(_ response: URLResponse) throws {
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
            throw FixtureError.unexpectedResponse
        }
    }
}
