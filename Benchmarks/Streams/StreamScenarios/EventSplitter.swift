import Foundation

/// The least a hand-rolled client does to cut a Server-Sent Events body into events: it looks
/// for the blank line (`\n\n`) that ends each, and hands each event's bytes on as one `Data`.
///
/// No field is read, no UTF-8 is decoded, and only `\n` line ends are understood: a floor, not
/// a parser.
public struct EventSplitter: Sendable {
    /// The bytes of an event that began in an earlier chunk.
    private var carry = Data()
    /// Whether the last byte seen was a line feed.
    private var followsLineFeed = false

    /// A splitter at the start of a stream.
    public init() {}

    /// Reads the next chunk, passing each event it completes to `event`; returns how many.
    @discardableResult
    public mutating func split(_ chunk: Data, _ event: (Data) -> Void) -> Int {
        var count = 0
        chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var start = 0
            for index in 0..<bytes.count {
                guard base[index] == 0x0A else {
                    followsLineFeed = false
                    continue
                }
                guard followsLineFeed else {
                    followsLineFeed = true
                    continue
                }
                followsLineFeed = false
                let end = index + 1
                if carry.isEmpty {
                    event(Data(bytes: base + start, count: end - start))
                } else {
                    carry.append(base + start, count: end - start)
                    event(carry)
                    carry = Data()
                }
                count += 1
                start = end
            }
            if start < bytes.count {
                carry.append(base + start, count: bytes.count - start)
            }
        }
        return count
    }

}
