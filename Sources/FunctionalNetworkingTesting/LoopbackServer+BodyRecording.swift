import Foundation

extension LoopbackServer {
    /// What the server keeps of each request body it reads.
    ///
    /// By default (``keep``) every body is kept in ``RecordedRequest/body``, and a body over
    /// 64 MiB is refused with `413 Content Too Large`. To receive a larger body, such as an
    /// upload of hundreds of megabytes, choose ``digestOnly``: the server reads the body as it
    /// arrives and keeps only its size and CRC-32 (``RecordedRequest/bodyDigest``), so its
    /// memory stays flat whatever the size.
    ///
    /// ```swift
    /// let server = try LoopbackServer(bodyRecording: .digestOnly) { _ in .status(201) }
    /// var upload = URLRequest(url: server.url(for: "/archive"))
    /// upload.httpMethod = "PUT"
    /// _ = try await session.upload(for: upload, fromFile: archiveURL)
    /// let request = try #require(await server.takeRequest())
    /// #expect(request.bodyDigest == (try LoopbackServer.BodyDigest(contentsOf: archiveURL)))
    /// ```
    public enum BodyRecording: Sendable, Hashable {
        /// Keep every byte in ``RecordedRequest/body``; refuse bodies over 64 MiB with `413`.
        case keep
        /// Read and discard the bytes, keeping their count and CRC-32 in
        /// ``RecordedRequest/bodyDigest``; ``RecordedRequest/body`` stays empty. Any size is
        /// accepted, with `Content-Length` or chunked.
        case digestOnly
    }

    /// What the server keeps of the request bodies it reads from now on; ``BodyRecording/keep``
    /// unless chosen otherwise.
    ///
    /// A change applies to the requests whose head the server has not read yet.
    public var bodyRecording: BodyRecording {
        get { core.bodyRecording }
        set { core.bodyRecording = newValue }
    }

    /// The size of a body and its CRC-32, computed as the bytes stream past, without keeping them.
    ///
    /// The checksum is the CRC-32 of ISO-HDLC, zlib, gzip and PNG (polynomial `0x04C11DB7`,
    /// reflected, initial value and final XOR `0xFFFFFFFF`): the same bytes give the same digest,
    /// and any change to one byte, any lost, added or swapped stretch changes it (but for one
    /// chance in four billion, for changes made on purpose too; it is a check, not a proof).
    ///
    /// ```swift
    /// var digest = LoopbackServer.BodyDigest()
    /// digest.update(with: Data("1234".utf8))
    /// digest.update(with: Data("56789".utf8))
    /// // digest == LoopbackServer.BodyDigest(Data("123456789".utf8))
    /// // digest.byteCount == 9, digest.crc32 == 0xCBF43926
    /// ```
    public struct BodyDigest: Sendable, Hashable, CustomStringConvertible {
        /// How many bytes went in.
        public private(set) var byteCount: Int
        /// The running CRC register, before its final XOR.
        private var register: UInt32

        /// The digest of no bytes: a count of 0 and a CRC-32 of 0.
        public init() {
            byteCount = 0
            register = 0xFFFF_FFFF
        }

        /// The digest of `data`.
        ///
        /// - Parameter data: The bytes.
        public init(_ data: Data) {
            self.init()
            update(with: data)
        }

        /// A digest with the given count and checksum, to compare with a recorded one.
        ///
        /// - Parameters:
        ///   - byteCount: The number of bytes.
        ///   - crc32: Their CRC-32.
        public init(byteCount: Int, crc32: UInt32) {
            self.byteCount = byteCount
            register = ~crc32
        }

        /// The digest of the file at `url`, read a mebibyte at a time.
        ///
        /// - Parameter url: A file URL.
        /// - Throws: The error of opening or reading the file.
        public init(contentsOf url: URL) throws {
            self.init()
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1_048_576), !chunk.isEmpty {
                update(with: chunk)
            }
        }

        /// The CRC-32 of the bytes.
        public var crc32: UInt32 { ~register }

        /// The count and the checksum in hexadecimal, as `9 bytes, CRC-32 cbf43926`.
        public var description: String {
            let hex = String(crc32, radix: 16)
            return "\(byteCount) bytes, CRC-32 \(String(repeating: "0", count: 8 - hex.count))\(hex)"
        }

        /// Adds `data`, as if it followed the bytes already counted.
        ///
        /// - Parameter data: The next bytes.
        public mutating func update(with data: Data) {
            data.withUnsafeBytes { update(with: $0) }
        }

        /// Adds `bytes`, as if they followed the bytes already counted.
        ///
        /// - Parameter bytes: The next bytes.
        public mutating func update(with bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            let count = bytes.count
            var crc = register
            var index = 0
            // Slicing by eight (Intel's method): eight bytes per step, one table each. Pointer
            // arithmetic only, so that a debug build still reads a few hundred megabytes a second.
            Self.table.withUnsafeBufferPointer { tableBuffer in
                guard let table = tableBuffer.baseAddress else { return }
                while index + 8 <= count {
                    let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    let low = UInt32(truncatingIfNeeded: word) ^ crc
                    let high = UInt32(truncatingIfNeeded: word >> 32)
                    crc =
                        table[1_792 + Int(low & 0xFF)] ^ table[1_536 + Int((low >> 8) & 0xFF)]
                        ^ table[1_280 + Int((low >> 16) & 0xFF)] ^ table[1_024 + Int(low >> 24)]
                        ^ table[768 + Int(high & 0xFF)] ^ table[512 + Int((high >> 8) & 0xFF)]
                        ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                    index += 8
                }
                while index < count {
                    let byte = base.load(fromByteOffset: index, as: UInt8.self)
                    crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                    index += 1
                }
            }
            register = crc
            byteCount += count
        }

        /// Eight tables of 256 entries: the first the byte-wise CRC table of the reflected
        /// polynomial `0xEDB88320`, each next one the previous advanced by a zero byte.
        private static let table: [UInt32] = {
            var table = [UInt32](repeating: 0, count: 8 * 256)
            for byte in 0..<256 {
                var crc = UInt32(byte)
                for _ in 0..<8 {
                    crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1
                }
                table[byte] = crc
            }
            for byte in 0..<256 {
                var crc = table[byte]
                for slice in 1..<8 {
                    crc = table[Int(crc & 0xFF)] ^ (crc >> 8)
                    table[slice * 256 + byte] = crc
                }
            }
            return table
        }()
    }
}
