import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why reading or writing on a connection stopped.
enum ConnectionError: Error, Equatable {
    /// The peer closed its side (or reset the connection).
    case peerClosed
    /// The server is stopping.
    case stopped
    /// The request could not be parsed; answer with `error.status` and close.
    case malformed(HTTPParseError)
}

/// A request body as read: its bytes, or only their digest.
enum ReceivedBody: Equatable {
    case kept(Data)
    case digested(LoopbackServer.BodyDigest)
}

/// Buffered, stop-aware I/O on one accepted, non-blocking socket.
///
/// Used by exactly one thread. Every wait polls the server's ``WakeSignal`` too, so
/// `stop()` interrupts reads, writes and sleeps alike. The descriptor is closed by
/// ``close()`` (or `deinit`), never by anyone else.
final class ConnectionIO {
    let fd: Int32
    private let wake: WakeSignal
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var isClosed = false

    init(fd: Int32, wake: WakeSignal) {
        self.fd = fd
        self.wake = wake
    }

    deinit { close() }

    /// Closes the descriptor once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Socket.closeDescriptor(fd)
    }

    /// Sends everything written so far, then closes after the peer has seen it.
    ///
    /// Shuts down the sending side and drains what the peer still sends for a short
    /// while, so that unread request bytes do not turn our close into a reset that
    /// could destroy the response in flight.
    func closeGracefully() {
        guard !isClosed else { return }
        Socket.shutdownWrite(fd)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(500))
        drain: while clock.now < deadline {
            switch wake.wait(for: fd, events: Int16(POLLIN), timeout: clock.now.duration(to: deadline)) {
            case .woken, .timedOut: break drain
            case .ready:
                let result = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
                if case .bytes = result { continue }
                if result == .wouldBlock { continue }
                break drain
            }
        }
        close()
    }

    /// Waits until a request byte is buffered or arrives.
    ///
    /// - Throws: `.peerClosed` at end of stream, `.stopped` when the server stops.
    func waitForData() throws(ConnectionError) {
        compact()
        skipBlankLines()
        while readIndex >= buffer.count {
            compact()
            try fill()
            skipBlankLines()
        }
    }

    /// Reads one header section and parses it.
    ///
    /// - Returns: The parsed head; the buffer then starts at the body.
    /// - Throws: `.malformed` for bad or oversized input, or a connection error.
    func readHead() throws(ConnectionError) -> RequestHead {
        try waitForData()
        var resume = readIndex
        while true {
            switch HTTPParser.findHeadEnd(in: buffer, start: readIndex, scanFrom: resume) {
            case let .found(end):
                guard end - readIndex <= HTTPParser.maxHeadSize else { throw .malformed(.headersTooLarge) }
                let head = buffer[readIndex..<end]
                readIndex = end
                do {
                    return try HTTPParser.parseHead(head)
                } catch {
                    throw .malformed(error)
                }
            case let .notYet(next):
                guard buffer.count - readIndex <= HTTPParser.maxHeadSize else { throw .malformed(.headersTooLarge) }
                resume = next
                try fill()
            }
        }
    }

    /// Reads the body that `head` announces, de-chunking if needed, and keeps its bytes
    /// (at most ``HTTPParser/maxBodySize``) or only their digest (any size, in constant memory).
    ///
    /// - Throws: `.malformed` for bad framing or a kept body over the limit, or a connection error.
    func readBody(_ framing: RequestHead.BodyFraming, keeping: Bool) throws(ConnectionError) -> ReceivedBody {
        var sink = keeping ? BodySink.bytes(Data()) : BodySink.digest(LoopbackServer.BodyDigest())
        switch framing {
        case .none: break
        case let .contentLength(length):
            guard !keeping || length <= HTTPParser.maxBodySize else { throw .malformed(.bodyTooLarge) }
            if keeping { sink = .bytes(Data(capacity: length)) }  // One buffer, never grown.
            try stream(length, into: &sink)
        case .chunked: try readChunkedBody(into: &sink)
        }
        switch sink {
        case .bytes(let bytes): return .kept(bytes)
        case .digest(let digest): return .digested(digest)
        }
    }

    /// Writes all of `bytes`, in one `send` when the kernel takes it (it usually does).
    ///
    /// - Throws: `.peerClosed` when the peer is gone, `.stopped` when the server stops.
    func write(_ bytes: [UInt8]) throws(ConnectionError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Socket.send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            switch result {
            case let .bytes(count): offset += count
            case .wouldBlock:
                if wake.wait(for: fd, events: Int16(POLLOUT), timeout: nil) == .woken { throw .stopped }
            case .endOfStream, .failed: throw .peerClosed
            }
        }
    }

    // MARK: - Private

    /// Where the bytes of a body go as they are read.
    private enum BodySink {
        case bytes(Data)
        case digest(LoopbackServer.BodyDigest)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .digest(let digest): digest.byteCount
            }
        }

        /// Whether `size` more bytes may still be kept.
        func admits(_ size: Int) -> Bool {
            guard case .bytes(let bytes) = self else { return true }
            return bytes.count + size <= HTTPParser.maxBodySize
        }

        mutating func append(_ bytes: ArraySlice<UInt8>) {
            switch self {
            case .bytes(var kept):
                self = .bytes(Data())  // Keeps `kept` uniquely referenced while it grows.
                kept.append(contentsOf: bytes)
                self = .bytes(kept)
            case .digest(var digest):
                bytes.withUnsafeBytes { digest.update(with: $0) }
                self = .digest(digest)
            }
        }
    }

    private func readChunkedBody(into sink: inout BodySink) throws(ConnectionError) {
        while true {
            let line = try readLine(limit: HTTPParser.maxChunkLineSize)
            let size: Int
            do {
                size = try HTTPParser.parseChunkSize(line)
            } catch {
                throw .malformed(error)
            }
            guard sink.admits(size) else { throw .malformed(.bodyTooLarge) }
            if size == 0 { break }
            try stream(size, into: &sink)
            guard try readLine(limit: 2).isEmpty else { throw .malformed(.badRequest("missing CRLF after chunk")) }
        }
        var trailerBytes = 0
        while true {
            let trailer = try readLine(limit: HTTPParser.maxHeadSize)
            if trailer.isEmpty { return }
            trailerBytes += trailer.count
            guard trailerBytes <= HTTPParser.maxHeadSize else { throw .malformed(.headersTooLarge) }
        }
    }

    /// Passes the next `count` bytes to `sink` as they arrive. Once every buffered byte has
    /// been passed on, the buffer is emptied before it is filled again, so a digest-only body
    /// of any size goes through a buffer of one read.
    private func stream(_ count: Int, into sink: inout BodySink) throws(ConnectionError) {
        var remaining = count
        while remaining > 0 {
            if readIndex == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                readIndex = 0
                try fill()
            }
            let available = min(remaining, buffer.count - readIndex)
            sink.append(buffer[readIndex..<(readIndex + available)])
            readIndex += available
            remaining -= available
        }
    }

    /// Reads one line, without its `LF` or `CRLF` ending.
    private func readLine(limit: Int) throws(ConnectionError) -> ArraySlice<UInt8> {
        var scanned = readIndex
        while true {
            if let lineFeed = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[readIndex..<lineFeed]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                readIndex = lineFeed + 1
                guard line.count <= limit else { throw .malformed(.badRequest("line too long")) }
                return line
            }
            guard buffer.count - readIndex <= limit + 1 else { throw .malformed(.badRequest("line too long")) }
            scanned = buffer.count
            try fill()
        }
    }

    /// Tolerates empty lines before a request line (RFC 9112 §2.2).
    private func skipBlankLines() {
        while readIndex < buffer.count, buffer[readIndex] == UInt8(ascii: "\r") || buffer[readIndex] == UInt8(ascii: "\n") {
            readIndex += 1
        }
    }

    /// Drops consumed bytes. Only called between requests, when no index into the
    /// buffer is held anywhere.
    private func compact() {
        guard readIndex > 0 else { return }
        buffer.removeFirst(readIndex)
        readIndex = 0
    }

    /// Appends at least one more byte to the buffer.
    private func fill() throws(ConnectionError) {
        while true {
            let result = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
            switch result {
            case let .bytes(count):
                buffer += scratch[0..<count]
                return
            case .wouldBlock:
                if wake.wait(for: fd, events: Int16(POLLIN), timeout: nil) == .woken { throw .stopped }
            case .endOfStream, .failed:
                throw .peerClosed
            }
        }
    }
}
