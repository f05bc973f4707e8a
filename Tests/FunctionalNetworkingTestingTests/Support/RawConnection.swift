import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking-free TCP client for cases URLSession cannot express: malformed
/// requests, hand-made chunked bodies, pipelining, observing a close.
///
/// Every read has a deadline, so a server bug fails the test instead of hanging it.
final class RawConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A parsed response read off the socket.
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    private let fd: Int32
    private var buffer = Data()

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        let (fd, code) = Self.connect(port: port)
        guard fd >= 0 else { throw Failure(description: "connect failed: errno \(code)") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Tries to connect to 127.0.0.1:`port`; returns 0 on success or the `errno`.
    static func connectError(port: Int) -> Int32 {
        let (fd, code) = connect(port: port)
        if fd >= 0 { close(fd) }
        return fd >= 0 ? 0 : code
    }

    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    func send(_ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(fd, raw.baseAddress! + offset, raw.count - offset, 0)
                #endif
            }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads one response framed by Content-Length (the server always sends one).
    /// Pass `hasBody: false` for the answer to a HEAD request.
    func readResponse(timeout: Duration = .seconds(30), hasBody: Bool = true) throws -> Response {
        let deadline = ContinuousClock.now + timeout
        let separator = Data("\r\n\r\n".utf8)
        var headEnd = buffer.range(of: separator)
        while headEnd == nil {
            guard try readMore(until: deadline) else { throw Failure(description: "closed before a response head") }
            headEnd = buffer.range(of: separator)
        }
        let head = String(decoding: buffer[..<headEnd!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var response = Response(status: status, headers: headers, body: Data())
        buffer.removeSubrange(..<headEnd!.upperBound)
        if status == 100 { return try readResponse(timeout: timeout, hasBody: hasBody) }
        let length = hasBody ? Int(response.header("Content-Length") ?? "0") ?? 0 : 0
        while buffer.count < length {
            guard try readMore(until: deadline) else { throw Failure(description: "closed mid-body") }
        }
        response.body = buffer.prefix(length)
        buffer.removeSubrange(..<(buffer.startIndex + length))
        return response
    }

    /// Reads a bodyless interim response (e.g. `100 Continue`) and returns its status line.
    func readInterimResponse(timeout: Duration = .seconds(30)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard try readMore(until: deadline) else { throw Failure(description: "closed before an interim response") }
        }
        let end = buffer.range(of: separator)!
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        return head.components(separatedBy: "\r\n")[0]
    }

    /// Reads until the server closes; returns everything received.
    func readUntilClosed(timeout: Duration = .seconds(30)) throws -> Data {
        let deadline = ContinuousClock.now + timeout
        while try readMore(until: deadline) {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Returns the bytes that arrive next (and any already buffered), or `nil` once the server
    /// has closed the connection and nothing is buffered; throws at the deadline.
    func readNext(timeout: Duration = .seconds(30)) throws -> Data? {
        if buffer.isEmpty, try !readMore(until: ContinuousClock.now + timeout) { return nil }
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server closes the connection (EOF or reset) within `timeout`
    /// without sending anything more.
    func isClosedByPeer(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        do {
            return try !readMore(until: deadline)
        } catch {
            return false
        }
    }

    /// Appends what arrives; `false` at EOF or reset, throws at the deadline.
    private func readMore(until deadline: ContinuousClock.Instant) throws -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let remaining = ContinuousClock.now.duration(to: deadline)
        let milliseconds = max(0, Int32(remaining.components.seconds * 1_000 + remaining.components.attoseconds / 1_000_000_000_000_000))
        guard remaining > .zero, poll(&descriptor, 1, milliseconds) > 0 else {
            throw Failure(description: "timed out waiting for the server")
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    private static func connect(port: Int) -> (Int32, Int32) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return (-1, errno) }
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            return (-1, code)
        }
        return (fd, 0)
    }
}
