import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/Transfers.md, as the article shows them, against
// LoopbackServers on 127.0.0.1.

@Suite("Samples: Uploads, downloads and progress")
struct TransfersSamplesTests {
    @Test func aFormWithAFileArrivesWithItsFields() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":1}"#) }
        defer { server.stop() }
        let api = server.baseURL
        let transport = NetworkSession.shared.transport(with: .retry(), .validatingStatus())
        let photoURL = try URLRequestBodyTests.temporaryFile(count: 50_000)
        defer { try? FileManager.default.removeItem(at: photoURL) }

        var form = MultipartFormData()
        form.append("Holiday", named: "title")
        form.appendFile(at: photoURL, named: "photo", contentType: "image/jpeg")
        let upload = Endpoint(method: .post, baseURL: api, path: "/photos").with(body: form)
        let reply = try await networking(from: transport)(upload).value

        #expect(reply == Data(#"{"id":1}"#.utf8))
        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(recorded.formParts?.map(\.name) == ["title", "photo"])
        #expect(recorded.formParts?.last?.contentType == "image/jpeg")
    }

    @Test func aFormEncodedBodyArrivesInOrder() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.stop() }
        let api = server.baseURL
        let password = "s3cret & more"

        let signIn = Endpoint(method: .post, baseURL: api, path: "/token")
            .with(body: ["grant_type": "password", "username": "ada", "password": password] as FormBody)

        _ = try await networking(from: NetworkSession.shared.transport)(signIn).value
        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(recorded.bodyText == "grant_type=password&username=ada&password=s3cret+%26+more")
    }

    @Test func anUploadOfAnySizeIsCheckedByItsDigest() async throws {
        let archiveURL = try URLRequestBodyTests.temporaryFile(count: 3_000_000)
        defer { try? FileManager.default.removeItem(at: archiveURL) }

        let server = try LoopbackServer(bodyRecording: .digestOnly) { _ in .status(201) }
        defer { server.stop() }
        let upload = Endpoint(method: .put, baseURL: server.baseURL, path: "/backups/today.tar")
            .with(bodyFromFileAt: archiveURL, contentType: "application/x-tar")
        _ = try await networking(from: NetworkSession.shared.transport)(upload).value

        let received = try #require(await server.takeRequest())
        #expect(received.isBodyDiscarded)
        #expect(received.bodyDigest == (try LoopbackServer.BodyDigest(contentsOf: archiveURL)))

        #expect(received.body.isEmpty)
        #expect(received.bodyDigest == LoopbackServer.BodyDigest(DownloadTests.pattern(3_000_000)))
    }

    @Test func aDownloadReportsItsProgressToTheEnd() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Response(body: Data(count: 500_000)) }
        defer { server.stop() }
        let reportURL = server.url(for: "/report.pdf")
        let transport = NetworkSession.shared.transport(with: .retry(), .validatingStatus())
        let fractions = Collected<Double>()
        @Sendable func showProgress(_ fraction: Double) { fractions.append(fraction) }

        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("report.pdf")
        let response = try await withTransferProgress {
            try await download(Endpoint(baseURL: reportURL), to: destination, through: transport)
        } onProgress: { progress in
            if let fraction = progress.fractionReceived { showProgress(fraction) }
        }

        defer { try? FileManager.default.removeItem(at: destination) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try Data(contentsOf: destination).count == 500_000)
        #expect(fractions.values.last == 1)
        #expect(fractions.values == fractions.values.sorted())
    }
}
