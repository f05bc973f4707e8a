import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Page 6: a file uploaded with its progress, and a report downloaded to a file.
let transfersPage = Page(name: "transfers", title: "Uploads and downloads: a file up with progress, a report down to a file") {
    // The server keeps only the size and CRC-32 of what it receives, and says them back.
    let report = patterned(3 * 1_048_576, seed: 7)
    let server = try LoopbackServer(bodyRecording: .digestOnly) { request in
        switch (request.method, request.path) {
        case ("PUT", let path) where path.hasPrefix("/uploads/"):
            let digest = request.bodyDigest
            return .json(#"{"received":\#(digest.byteCount),"crc32":"\#(String(digest.crc32, radix: 16))"}"#, status: 201)
        case ("GET", "/reports/monthly.pdf"):
            // Sent a mebibyte at a time, so that the progress has something to show.
            return LoopbackServer.Response(headers: [.init("Content-Type", "application/pdf")], body: report)
                .throttled(bytesPerPeriod: 1_048_576, period: .milliseconds(30))
        default:
            return .status(404)
        }
    }
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tour-transfers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let session = NetworkSession(configuration: .ephemeral)
    let transport = session.transport(with: .retry(), .validatingStatus())
    let send = networking(from: transport)

    // An upload from a file: streamed from disk, never held in memory.
    let video = folder.appendingPathComponent("holiday.mov")
    try patterned(4 * 1_048_576, seed: 13).write(to: video)
    let written = try LoopbackServer.BodyDigest(contentsOf: video)
    print("uploading \(video.lastPathComponent) (\(written)) from disk:")
    let upload = Endpoint(method: .put, baseURL: server.baseURL, path: "/uploads/holiday.mov")
        .with(bodyFromFileAt: video, contentType: "video/quicktime")
    let sentMilestones = Milestones()
    let reply = try await withTransferProgress {
        try await send(upload).value
    } onProgress: { progress in
        // A file's body is streamed, so its total is not announced: report each mebibyte.
        if let mebibytes = sentMilestones.passed(progress.bytesSent / 1_048_576), mebibytes > 0 {
            print("  sent \(mebibytes) MiB")
        }
    }
    print("  → the server answered \(String(decoding: reply, as: UTF8.self))")

    // A download to a file: written beside the destination, moved there once complete.
    let destination = folder.appendingPathComponent("monthly.pdf")
    print("downloading the monthly report to \(destination.lastPathComponent):")
    let receivedMilestones = Milestones()
    let response = try await withTransferProgress {
        try await download(Endpoint(baseURL: server.baseURL, path: "/reports/monthly.pdf"), to: destination, through: transport)
    } onProgress: { progress in
        if let fraction = progress.fractionReceived, let quarter = receivedMilestones.passed(Int(fraction * 4)), quarter > 0 {
            print("  \(Int(fraction * 100))% (\(progress.bytesReceived) of \(progress.totalBytesToReceive ?? 0) bytes)")
        }
    }
    let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int ?? 0
    let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let identical = try Data(contentsOf: destination) == report
    print("  → status \((response as? HTTPURLResponse)?.statusCode ?? 0), \(size) bytes on disk, identical to what was sent: \(identical)")
    print("  → the folder holds \(contents): no temporary file is left behind")
}

/// `count` bytes that repeat every 65,536, made a block at a time (quick in a debug build).
func patterned(_ count: Int, seed: Int) -> Data {
    let block = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* seed &+ $0 >> 8) })
    var data = Data(capacity: count)
    while data.count < count {
        data.append(block.prefix(count - data.count))
    }
    return data
}

/// Remembers the last step a progress observer reported, so that each step prints once.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class Milestones: @unchecked Sendable {
    private let lock = NSLock()
    private var last = -1

    /// `step` when it is beyond the last one passed, else `nil`.
    func passed(_ step: Int) -> Int? {
        lock.withLock {
            guard step > last else { return nil }
            last = step
            return step
        }
    }
}
