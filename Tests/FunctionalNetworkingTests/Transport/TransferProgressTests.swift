import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Progress as ``withTransferProgress(_:_:)`` reports it: in order, never backwards, ending at
/// the total.
@Suite("TransferProgress")
struct TransferProgressTests {
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [TransferProgress] = []
        func append(_ value: TransferProgress) { lock.withLock { values.append(value) } }
        var all: [TransferProgress] { lock.withLock { values } }
    }

    @Test func aDownloadsProgressGrowsAndEndsAtTheTotal() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Response(body: Data(count: 2_000_000)) }
        defer { server.stop() }
        let folder = try DownloadTests.Folder()
        let seen = Seen()
        _ = try await withTransferProgress {
            try await download(Endpoint(baseURL: server.baseURL, path: "/p"), to: folder.file("p"), through: makeTestSession().transport)
        } onProgress: {
            seen.append($0)
        }
        let received = seen.all.map(\.bytesReceived)
        #expect(received.count > 1)
        #expect(received == received.sorted())
        #expect(seen.all.last?.bytesReceived == 2_000_000)
        #expect(seen.all.last?.totalBytesToReceive == 2_000_000)
        #expect(seen.all.last?.fractionReceived == 1)
    }

    @Test func anUploadsProgressEndsAtItsSize() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.stop() }
        var request = URLRequest(url: server.url(for: "/up"))
        request.httpMethod = "PUT"
        request.httpBody = Data(count: 1_500_000)
        let seen = Seen()
        _ = try await withTransferProgress {
            try await makeTestSession().transport(request)
        } onProgress: {
            seen.append($0)
        }
        let sent = seen.all.map(\.bytesSent)
        #expect(sent == sent.sorted())
        #expect(seen.all.last?.bytesSent == 1_500_000)
        #expect(seen.all.last?.totalBytesToSend == 1_500_000)
    }

    @Test func aRetryNeverMakesTheCountsGoBack() async throws {
        let body = Data(count: 400_000)
        let server = try LoopbackServer { request in
            request.sequenceNumber == 0 ? LoopbackServer.Response(body: body).withFault(.closeMidBody) : LoopbackServer.Response(body: body)
        }
        defer { server.stop() }
        let transport = makeTestNetworkSession().transport(with: .retry(RetryPolicy(maxAttempts: 2, backoff: .immediate)))
        let seen = Seen()
        let (data, _) = try await withTransferProgress {
            try await transport(URLRequest(url: server.url(for: "/r")))
        } onProgress: {
            seen.append($0)
        }
        #expect(data.count == 400_000)
        let received = seen.all.map(\.bytesReceived)
        #expect(received == received.sorted())
        #expect(received.last == 400_000)
    }

    @Test func nothingIsReportedOutsideAWatchedCall() async throws {
        let server = try LoopbackServer { _ in .text("quiet") }
        defer { server.stop() }
        let seen = Seen()
        let transport = makeTestSession().transport
        await withTransferProgress {
        } onProgress: {
            seen.append($0)
        }
        _ = try await transport(URLRequest(url: server.url(for: "/q")))
        #expect(seen.all.isEmpty)
    }

    @Test func fractionsAreNilWithoutATotal() {
        #expect(TransferProgress(bytesReceived: 5).fractionReceived == nil)
        #expect(TransferProgress(bytesReceived: 5, totalBytesToReceive: 10).fractionReceived == 0.5)
        #expect(TransferProgress(totalBytesToSend: 0).fractionSent == 1)
    }

    /// A redirect's own small body is never reported: a progress bar never shows 100 % before a
    /// byte of the file has arrived, and never goes back.
    @Test(arguments: [302, 307])
    func aRedirectedDownloadReportsOnlyTheResponseWrittenToTheFile(_ status: Int) async throws {
        let server = try LoopbackServer { request in
            request.path == "/start"
                ? LoopbackServer.Response(status: status, headers: [.init("Location", "/bytes")], body: Data("moved".utf8))
                : LoopbackServer.Response(body: Data(count: 100_000))
        }
        defer { server.stop() }
        let folder = try DownloadTests.Folder()
        let seen = Seen()
        _ = try await withTransferProgress {
            try await download(
                Endpoint(baseURL: server.baseURL, path: "/start"), to: folder.file("b"), through: makeTestSession().transport)
        } onProgress: {
            seen.append($0)
        }
        let fractions = seen.all.compactMap(\.fractionReceived)
        #expect(!seen.all.isEmpty)
        #expect(seen.all.allSatisfy { $0.totalBytesToReceive == nil || $0.totalBytesToReceive == 100_000 })
        #expect(fractions == fractions.sorted())
        #expect(fractions.dropLast().allSatisfy { $0 < 1 })
        #expect(seen.all.last?.bytesReceived == 100_000)
    }
}
