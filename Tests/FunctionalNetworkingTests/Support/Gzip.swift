import Foundation

/// Gzip streams of zeros for the response-size tests, made without zlib: deflate blocks with
/// the fixed Huffman code, each a literal 0 and then 8,006 copies of "258 bytes at distance 1"
/// (13 bits a copy), so that one block is 13,012 bytes long, byte-aligned, and decodes to
/// 2,065,549 zero bytes: about 159 times its size.
enum GzipZeros {
    /// The 10-byte gzip header: deflate, no name, no time, unknown OS.
    static let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]

    /// How many zero bytes one ``block`` decodes to.
    static let bytesPerBlock = 1 + 8_006 * 258

    /// One non-final deflate block of zeros (see the type's comment). Bytes, not `Data`: a
    /// `Data` kept in a global holds its storage behind tag bits, which LeakSanitizer cannot
    /// follow, so it would report the block as leaked.
    static let block: [UInt8] = {
        var bits = BitWriter()
        bits.write(0, count: 1)  // BFINAL: not the last block
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
        bits.writeCode(0b0011_0000, length: 8)  // literal 0
        for _ in 0..<8_006 {
            bits.writeCode(0b1100_0101, length: 8)  // length code 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
        }
        bits.writeCode(0, length: 7)  // end of block
        precondition(bits.bitCount % 8 == 0, "the block must end on a byte boundary")
        return bits.bytes
    }()

    /// A complete gzip member of `blocks` blocks: header, blocks, an empty final block, and
    /// the trailer with the CRC-32 and the length of the decoded zeros.
    static func member(blocks: Int) -> Data {
        var data = Data(header)
        for _ in 0..<blocks { data.append(contentsOf: block) }
        data.append(contentsOf: [0x03, 0x00])  // BFINAL 1, BTYPE 01, end of block
        let length = UInt64(blocks) * UInt64(bytesPerBlock)
        let crc = CRC32.ofZeros(count: length)
        for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        return data
    }

    /// Packs bits least significant first, as deflate does; Huffman codes go in most
    /// significant bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { append(bit: (value >> UInt32(index)) & 1 == 1) }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { append(bit: (code >> UInt32(index)) & 1 == 1) }
        }

        private mutating func append(bit: Bool) {
            if bitCount % 8 == 0 { bytes.append(0) }
            if bit { bytes[bytes.count - 1] |= UInt8(1 << (bitCount % 8)) }
            bitCount += 1
        }
    }
}

/// CRC-32 (the gzip one), of bytes and of long runs of zeros.
enum CRC32 {
    static func of(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The CRC-32 of `count` zero bytes, in O(log count): feeding zeros is a linear map on
    /// the register, so it is applied by squaring its matrix over GF(2).
    static func ofZeros(count: UInt64) -> UInt32 {
        // The operator for one zero bit: shift right, XOR the polynomial when bit 0 was set.
        var operatorMatrix = [UInt32](repeating: 0, count: 32)
        operatorMatrix[0] = 0xEDB8_8320
        for row in 1..<32 { operatorMatrix[row] = 1 << UInt32(row - 1) }
        // Square three times: the operator for one zero byte.
        for _ in 0..<3 { operatorMatrix = square(operatorMatrix) }
        var register: UInt32 = 0xFFFF_FFFF
        var remaining = count
        while remaining > 0 {
            if remaining & 1 == 1 { register = apply(operatorMatrix, to: register) }
            operatorMatrix = square(operatorMatrix)
            remaining >>= 1
        }
        return ~register
    }

    private static func apply(_ matrix: [UInt32], to vector: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for row in 0..<32 where (vector >> UInt32(row)) & 1 == 1 { result ^= matrix[row] }
        return result
    }

    private static func square(_ matrix: [UInt32]) -> [UInt32] {
        (0..<32).map { apply(matrix, to: matrix[$0]) }
    }
}
