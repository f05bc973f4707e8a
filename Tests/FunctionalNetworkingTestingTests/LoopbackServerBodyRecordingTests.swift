import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `LoopbackServer.BodyRecording` and `BodyDigest`: bodies kept (up to 64 MiB), or read and
/// discarded with only their size and CRC-32 kept, whatever their size and framing.
@Suite("LoopbackServer body recording and digests")
struct LoopbackServerBodyRecordingTests {
    typealias BodyDigest = LoopbackServer.BodyDigest

    static let mebibyte = 1_048_576

    /// `count` bytes of `(i × 131 + 17) mod 256`, the pattern whose CRC-32 zlib gives below.
    static func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) })
    }

    // MARK: - The digest

    @Test func theDigestMatchesZlibsCRC32() {
        // Values from Python's zlib.crc32.
        #expect(BodyDigest(Data("123456789".utf8)) == BodyDigest(byteCount: 9, crc32: 0xCBF4_3926))
        #expect(BodyDigest(Data("The quick brown fox jumps over the lazy dog".utf8)).crc32 == 0x414F_A339)
        #expect(BodyDigest(Self.pattern(1_000_003)) == BodyDigest(byteCount: 1_000_003, crc32: 0xB702_255C))
        #expect(BodyDigest() == BodyDigest(byteCount: 0, crc32: 0))
        #expect(BodyDigest(Data()) == BodyDigest())
    }

    @Test func aDigestTakenInPiecesEqualsTheWhole() {
        let data = Self.pattern(300)
        let whole = BodyDigest(data)
        for split in [0, 1, 3, 7, 8, 9, 63, 150, 299, 300] {
            var pieces = BodyDigest()
            pieces.update(with: data.prefix(split))
            pieces.update(with: data.dropFirst(split))
            #expect(pieces == whole, "split at \(split)")
        }
        var byteByByte = BodyDigest()
        for byte in data { byteByByte.update(with: Data([byte])) }
        #expect(byteByByte == whole)
    }

    @Test func aDigestTellsApartBodiesOfOneSize() {
        let data = Self.pattern(4_096)
        var flipped = data
        flipped[2_000] ^= 0x01
        var swapped = data  // Two neighbouring bytes trade places (the pattern repeats every 256).
        swapped[100] = data[101]
        swapped[101] = data[100]
        #expect(BodyDigest(flipped) != BodyDigest(data))
        #expect(BodyDigest(swapped) != BodyDigest(data))
        #expect(BodyDigest(data.dropLast()).byteCount == 4_095)
    }

    @Test func theDigestOfAFileIsTheDigestOfItsBytes() throws {
        let data = Self.pattern(2 * Self.mebibyte + 5)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try BodyDigest(contentsOf: url) == BodyDigest(data))
        #expect(throws: (any Error).self) { try BodyDigest(contentsOf: url.appendingPathExtension("missing")) }
    }

    @Test func aDigestDescribesItselfInHexadecimal() {
        #expect(BodyDigest(Data("123456789".utf8)).description == "9 bytes, CRC-32 cbf43926")
        #expect(BodyDigest(byteCount: 1, crc32: 0xAB).description == "1 bytes, CRC-32 000000ab")
    }

    // MARK: - Kept bodies (the default)

    @Test func bodiesAreKeptByDefaultAndTheirDigestIsComputedFromThem() async throws {
        try await HTTPClient.withServer { server, session in
            #expect(server.bodyRecording == .keep)
            var request = URLRequest(url: server.url(for: "/kept"))
            request.httpMethod = "POST"
            request.httpBody = Data("123456789".utf8)
            _ = try await HTTPClient.send(request, with: session)
            let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))
            #expect(recorded.bodyText == "123456789")
            #expect(!recorded.isBodyDiscarded)
            #expect(recorded.bodyDigest == BodyDigest(byteCount: 9, crc32: 0xCBF4_3926))
        }
    }

    @Test func aKeptBodyDeclaredOver64MiBIsRefusedBeforeItIsSent() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send(
            "PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: \(64 * Self.mebibyte + 1)\r\nExpect: 100-continue\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.body.text.contains("exceeds \(64 * Self.mebibyte) bytes"))
        #expect(connection.isClosedByPeer(within: .seconds(30)))
        #expect(server.requestCount == 0)
    }

    @Test func aKeptChunkedBodyGrowingPast64MiBIsRefused() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send(
            "POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n" + String(64 * Self.mebibyte, radix: 16) + "\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(server.requestCount == 0)
    }

    // MARK: - Digest only

    @Test func aDigestOnlyServerTakesAContentLengthBodyOver64MiBAndKeepsNoByte() async throws {
        let server = try LoopbackServer(bodyRecording: .digestOnly) { _ in .status(201) }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let block = Self.pattern(Self.mebibyte)
        let blocks = 65
        var sent = BodyDigest()
        try connection.send("PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: \(blocks * block.count + 3)\r\n\r\n")
        for _ in 0..<blocks {
            try connection.send(block)
            sent.update(with: block)
        }
        try connection.send("end")
        sent.update(with: Data("end".utf8))

        let response = try connection.readResponse()
        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))
        #expect(response.status == 201)
        #expect(recorded.isBodyDiscarded)
        #expect(recorded.body.isEmpty)
        #expect(recorded.bodyDigest == sent)
        #expect(recorded.bodyDigest.byteCount == 65 * Self.mebibyte + 3)
        #expect(recorded.header("Content-Length") == "\(65 * Self.mebibyte + 3)")
    }

    @Test func aDigestOnlyServerDigestsAChunkedBodyWithExtensionsAndTrailers() async throws {
        let server = try LoopbackServer(bodyRecording: .digestOnly)
        defer { server.stop() }
        server.enqueue(.text("got it"))
        server.enqueue(.text("and this"))
        let connection = try RawConnection(port: server.port)

        try connection.send(
            "POST /chunks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n"
                + "1;ext=1\r\n \r\n"
                + "A\r\n0123456789\r\n"
                + "0\r\nX-Trailer: yes\r\n\r\n"
        )
        let response = try connection.readResponse()
        // The next request on the same connection is read from where the body ended.
        try connection.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        let next = try connection.readResponse()
        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))
        let second = try #require(await server.takeRequest(timeout: .seconds(30)))

        #expect(response.body.text == "got it")
        #expect(next.body.text == "and this")
        #expect(recorded.bodyDigest == BodyDigest(byteCount: 16, crc32: 0x7C65_0C4A))  // "hello 0123456789"
        #expect(recorded.body.isEmpty)
        #expect(second.path == "/next")
        #expect(second.connectionIndex == recorded.connectionIndex)
        #expect(second.bodyDigest == BodyDigest())
    }

    @Test func aDigestOnlyServerDigestsAStreamedUploadFromURLSession() async throws {
        let server = try LoopbackServer(bodyRecording: .digestOnly) { _ in .status(204) }
        defer { server.stop() }
        let session = HTTPClient.makeSession()
        defer { session.invalidateAndCancel() }
        let payload = Self.pattern(3 * Self.mebibyte + 11)
        var request = URLRequest(url: server.url(for: "/stream"))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: payload)

        let result = try await HTTPClient.send(request, with: session)
        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))

        #expect(result.response.statusCode == 204)
        #expect(recorded.header("Transfer-Encoding") == "chunked")
        #expect(recorded.bodyDigest == BodyDigest(payload))
        #expect(recorded.isBodyDiscarded)
    }

    @Test func aDigestOnlyServerAnswersExpectContinue() async throws {
        let server = try LoopbackServer(bodyRecording: .digestOnly)
        defer { server.stop() }
        server.enqueue(.text("done"))
        let connection = try RawConnection(port: server.port)

        try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try connection.readInterimResponse()
        try connection.send("body")
        let response = try connection.readResponse()
        let recorded = try #require(await server.takeRequest(timeout: .seconds(30)))

        #expect(interim == "HTTP/1.1 100 Continue")
        #expect(response.body.text == "done")
        #expect(recorded.bodyDigest == BodyDigest(Data("body".utf8)))
    }

    @Test func changingTheRecordingAppliesToTheNextRequest() async throws {
        try await HTTPClient.withServer { server, session in
            var request = URLRequest(url: server.url(for: "/twice"))
            request.httpMethod = "POST"
            request.httpBody = Data("same body".utf8)

            _ = try await HTTPClient.send(request, with: session)
            server.bodyRecording = .digestOnly
            _ = try await HTTPClient.send(request, with: session)
            server.bodyRecording = .keep
            _ = try await HTTPClient.send(request, with: session)

            let recorded = [
                try #require(await server.takeRequest(timeout: .seconds(30))),
                try #require(await server.takeRequest(timeout: .seconds(30))),
                try #require(await server.takeRequest(timeout: .seconds(30))),
            ]
            #expect(recorded.map(\.isBodyDiscarded) == [false, true, false])
            #expect(recorded.map(\.bodyText) == ["same body", "", "same body"])
            #expect(Set(recorded.map(\.bodyDigest)) == [BodyDigest(Data("same body".utf8))])
        }
    }
}
