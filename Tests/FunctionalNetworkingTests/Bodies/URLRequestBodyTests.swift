import Foundation
import FunctionalNetworkingTesting
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streamed bodies end to end: what the server records, byte for byte, every time the request
/// is sent; a fresh stream for each send, ended after it; a file that fails mid-send named in
/// the error; nothing left open by a cancelled upload.
@Suite("URLRequest bodies")
struct URLRequestBodyTests {
    /// A file of `count` bytes of ``DownloadTests/pattern(_:)``; the test removes it.
    static func temporaryFile(count: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fn-body-\(UUID().uuidString).bin")
        try DownloadTests.pattern(count).write(to: url)
        return url
    }

    @Test func fieldsAndFilesArriveByteForByteWithTheirNames() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.stop() }
        let file = try Self.temporaryFile(count: 3_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.append("Ada Lovelace", named: "name")
        form.append("ünïcödé ✓", named: "naïve \"quoted\" name")
        form.appendFile(at: file, named: "upload", filename: "données \"1\".bin", contentType: "application/x-test")
        let request = try Endpoint(method: .post, baseURL: server.url(for: "/upload")).with(body: form).urlRequest()

        _ = try await makeTestSession().transport(request)

        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))
        let parts = try #require(recorded.formParts)
        #expect(parts.map(\.name) == ["name", "naïve \"quoted\" name", "upload"])
        #expect(parts[0].bodyText == "Ada Lovelace" && parts[0].filename == nil && parts[0].contentType == nil)
        #expect(parts[1].bodyText == "ünïcödé ✓")
        #expect(parts[2].filename == "données \"1\".bin")
        #expect(parts[2].contentType == "application/x-test")
        #expect(parts[2].body == (try Data(contentsOf: file)))
        #expect(recorded.header("Transfer-Encoding") == "chunked")
    }

    @Test func theSameRequestSentTwiceSendsTheWholeBodyTwice() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.stop() }
        let file = try Self.temporaryFile(count: 200_000)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.appendFile(at: file, named: "f")
        let request = try Endpoint(method: .put, baseURL: server.url(for: "/twice")).with(body: form).urlRequest()
        let transport = makeTestSession().transport
        _ = try await transport(request)
        _ = try await transport(request)
        let first = try #require(await server.takeRequest(timeout: .seconds(30)))
        let second = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(first.body == second.body)
        #expect(second.formParts?.first?.body == (try Data(contentsOf: file)))
    }

    @Test func aRetriedUploadSendsTheWholeBodyAgain() async throws {
        let server = try LoopbackServer { request in
            request.sequenceNumber == 0 ? .status(503) : .status(204)
        }
        defer { server.stop() }
        var form = MultipartFormData()
        form.append(Data(repeating: 0x5A, count: 100_000), named: "blob", filename: "blob.bin")
        let request = try Endpoint(method: .put, baseURL: server.url(for: "/retry")).with(body: form).urlRequest()
        let transport = makeTestNetworkSession().transport(
            with: .retry(RetryPolicy(maxAttempts: 2, backoff: .immediate)), .validatingStatus())
        let (_, response) = try await transport(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        let attempts = [
            try #require(await server.takeRequest(timeout: .seconds(30))), try #require(await server.takeRequest(timeout: .seconds(30))),
        ]
        #expect(attempts.allSatisfy { $0.formParts?.first?.body == Data(repeating: 0x5A, count: 100_000) })
    }

    @Test func a307RedirectSendsTheStreamedBodyToTheNewPlace() async throws {
        let target = try LoopbackServer { _ in .status(204) }
        defer { target.stop() }
        let origin = try LoopbackServer { _ in .redirect(to: target.url(for: "/moved"), status: 307) }
        defer { origin.stop() }
        var form = MultipartFormData()
        form.append("kept", named: "field")
        let request = try Endpoint(method: .post, baseURL: origin.url(for: "/upload")).with(body: form).urlRequest()
        _ = try await makeTestNetworkSession(policy: TransportPolicy(redirects: .follow(allowingCrossOriginBodies: true))).transport(
            request)
        let arrived = try #require(await target.takeRequest(timeout: .seconds(30)))
        #expect(arrived.method == "POST")
        #expect(arrived.formParts?.map(\.bodyText) == ["kept"])
    }

    @Test func aFormBodyArrivesAsFields() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.stop() }
        let request = try Endpoint(method: .post, baseURL: server.url(for: "/token")).with(
            body: ["grant_type": "password", "password": "a&b=c d+é"] as FormBody
        ).urlRequest()
        _ = try await makeTestSession().transport(request)
        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(
            recorded.formFields == [
                URLQueryItem(name: "grant_type", value: "password"), URLQueryItem(name: "password", value: "a&b=c d+é"),
            ])
    }

    @Test func aMultipartBodyShowsInCURLAndDescriptionsWithSecretsHidden() throws {
        let file = try Self.temporaryFile(count: 10)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.append("Holiday", named: "title")
        form.append("hunter2", named: "password")
        form.appendFile(at: file, named: "photo", filename: "p.jpg", contentType: "image/jpeg")
        form.append(Data(count: 3), named: "blob", filename: "b.bin")
        let request = try Endpoint(method: .post, baseURL: URL(string: "https://shop.test/photos")!).with(body: form).urlRequest()
        let curl = request.curlCommand()
        #expect(curl.contains("--form-string 'title=Holiday'"))
        #expect(curl.contains("--form-string 'password=<redacted>'"))
        #expect(curl.contains(#"-F 'photo=@\#(file.path);filename="p.jpg";type=image/jpeg'"#))
        #expect(curl.contains("blob=(3 bytes in memory;filename=\"b.bin\";type=application/octet-stream)"))
        #expect(!curl.contains("hunter2"))
        let described = Redaction.default.describe(request)
        #expect(described.hasSuffix("(body: a multipart form: title, password, photo (file p.jpg), blob (file b.bin))"))
    }

    /// The bytes of `stream`, read until its end or its failure; and whether it failed.
    static func readWhole(_ stream: InputStream) -> (Data, failed: Bool) {
        stream.open()
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { return (data, count < 0) }
            data.append(contentsOf: buffer.prefix(count))
        }
    }

    @Test func eachSendReadsAFreshStreamOfTheSameBody() async throws {
        var form = MultipartFormData()
        form.append("Ada", named: "name")
        let request = try Endpoint(method: .post, baseURL: URL(string: "http://127.0.0.1/upload")!).with(body: form).urlRequest()
        let original = ObjectIdentifier(try #require(request.httpBodyStream))
        let expected = try form.encoded()
        let body = StreamedBody.multipart(form)
        for _ in 0..<2 {
            let (fresh, sameBody, bytes) = try await request.sendingFreshBody { sent in
                let stream = try #require(sent.httpBodyStream)
                return (ObjectIdentifier(stream) != original, StreamedBody.of(stream) == body, Self.readWhole(stream).0)
            }
            #expect(fresh && sameBody && bytes == expected)
        }
        #expect(StreamedBody.of(request.httpBodyStream) == body)
    }

    @Test func aRequestWithoutAStreamedBodyIsSentAsItIs() async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1/upload")!)
        request.httpBodyStream = InputStream(data: Data("raw".utf8))
        let original = ObjectIdentifier(try #require(request.httpBodyStream))
        let same = try await request.sendingFreshBody { sent in sent.httpBodyStream.map(ObjectIdentifier.init) == original }
        #expect(same)
    }

    @Test func aSendStillWaitingForTheRestOfABodyWhoseFileFailedIsCancelledWithTheFilesName() async throws {
        let file = try Self.temporaryFile(count: 1_000)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.appendFile(at: file, named: "f")
        let request = try Endpoint(method: .post, baseURL: URL(string: "http://127.0.0.1/upload")!).with(body: form).urlRequest()
        let started = ContinuousClock.now
        // As CFNetwork does when a bound pair's writer stops: it waits for more of the body.
        let error = await #expect(throws: BodyError.self) {
            try await request.sendingFreshBody { sent in
                try FileManager.default.removeItem(at: file)
                _ = Self.readWhole(try #require(sent.httpBodyStream))
                try await Task.sleep(for: .seconds(60))
            }
        }
        #expect(error == .unreadableFile(file.path, reason: "it does not exist or cannot be read"))
        // Well before the send's own 60 s: cancelled, not waited out. (Under ThreadSanitizer
        // beside the whole suite it took 10.9 s once; the bound is a safety net, not a timing.)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aSendThatFailsOnABodyWhoseFileFailedFailsWithTheFilesName() async throws {
        let file = try Self.temporaryFile(count: 1_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let request = try Endpoint(baseURL: URL(string: "http://127.0.0.1/upload")!).with(bodyFromFileAt: file).urlRequest()
        // As Linux's URLSession does when a read fails: the transfer fails.
        let error = await #expect(throws: BodyError.self) {
            try await request.sendingFreshBody { sent in
                try FileManager.default.removeItem(at: file)
                let (_, failed) = Self.readWhole(try #require(sent.httpBodyStream))
                #expect(failed)
                throw URLError(.cannotWriteToFile)
            }
        }
        #expect(error == .unreadableFile(file.path, reason: "it does not exist or cannot be read"))
    }

    @Test func aFileRemovedWhileTheBodyIsSentFailsTheRequestNamingIt() async throws {
        // The server reads the head and then holds: the upload stalls inside the first file
        // (far larger than the socket's buffers) until it is released, so the second file is
        // removed while the body is sent, whatever the machine's load.
        let server = try HeldReader()
        defer { server.stop() }
        let folder = try DownloadTests.Folder()
        let (first, _) = try EndpointBodiesTests.largeFile(mebibytes: 64, in: folder)
        let second = folder.file("second.bin")
        try Data("second".utf8).write(to: second)
        var form = MultipartFormData()
        form.appendFile(at: first, named: "first")
        form.appendFile(at: second, named: "second")
        let request = try Endpoint(method: .post, baseURL: server.baseURL, path: "/upload").with(body: form).urlRequest()
        let transport = makeTestSession(timeout: 120).transport
        let upload = Task { try await transport(request) }
        try await waitUntil(within: .seconds(60), "the first file is open") { server.hasHead && openDescriptors(of: first) ?? 1 > 0 }
        try FileManager.default.removeItem(at: second)
        server.release()
        let error = await #expect(throws: BodyError.self) { _ = try await upload.value }
        #expect(error == .unreadableFile(second.path, reason: "it does not exist or cannot be read"))
        try await waitUntil(within: .seconds(30), "no file of the body is open") { openDescriptors(of: first) ?? 0 == 0 }
    }

    @Test func aCancelledUploadLeavesNoFileOpen() async throws {
        let server = try LoopbackServer(bodyRecording: .digestOnly) { _ in .status(204) }
        defer { server.stop() }
        let folder = try DownloadTests.Folder()
        let (file, _) = try EndpointBodiesTests.largeFile(mebibytes: 100, in: folder)
        #expect(openDescriptors(of: file) ?? 0 == 0)
        let request = try Endpoint(method: .put, baseURL: server.url(for: "/upload")).with(bodyFromFileAt: file).urlRequest()
        let transport = makeTestSession().transport
        let finished = Counter()
        let upload = Task {
            defer { finished.increment() }
            return try await transport(request)
        }
        // On a loaded machine this task may not run again before the whole file has gone: then
        // the upload is not cancelled, and it must still leave no file open.
        try await waitUntil("the file is being sent") { openDescriptors(of: file) ?? 1 == 1 || finished.value == 1 }
        upload.cancel()
        if finished.value == 0 {
            await #expect(throws: CancellationError.self) { _ = try await upload.value }
        } else {
            _ = try? await upload.value
        }
        try await waitUntil(within: .seconds(30), "the file is closed") { openDescriptors(of: file) ?? 0 == 0 }
    }
}
