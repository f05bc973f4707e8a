#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin, platform-neutral wrappers over the BSD socket calls the server needs.
///
/// Every function works on raw file descriptors and reports failures as
/// `LoopbackServerError.system`. Descriptors are owned by whoever created them;
/// nothing here closes a descriptor behind its owner's back.
enum Socket {
    /// The stream socket type, which is an enum on Glibc and an `Int32` on Darwin.
    static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Flags for `send`: suppress `SIGPIPE` where the platform supports it per call.
    static var sendFlags: Int32 {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }

    /// Creates a TCP socket bound to 127.0.0.1 on an ephemeral port and starts listening.
    ///
    /// - Parameter backlog: The listen backlog.
    /// - Returns: The listening descriptor and the port the kernel chose.
    /// - Throws: `LoopbackServerError.system` when any step fails.
    static func makeLoopbackListener(backlog: Int32) throws(LoopbackServerError) -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw .system(operation: "socket", code: errno) }
        do throws(LoopbackServerError) {
            try setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, operation: "setsockopt(SO_REUSEADDR)")
            try configureDescriptor(fd)
            var address = loopbackAddress(port: 0)
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw .system(operation: "bind", code: errno) }
            guard listen(fd, backlog) == 0 else { throw .system(operation: "listen", code: errno) }
            return (fd, try boundPort(fd))
        } catch {
            closeDescriptor(fd)
            throw error
        }
    }

    /// The outcome of ``acceptConnection(_:)``.
    enum AcceptResult {
        case accepted(Int32)
        case nothingPending
        case failed
    }

    /// Accepts one pending connection from a non-blocking listener.
    ///
    /// - Returns: The new descriptor (non-blocking, `TCP_NODELAY`, no `SIGPIPE`),
    ///   `.nothingPending`, or `.failed` (e.g. out of descriptors).
    static func acceptConnection(_ listener: Int32) -> AcceptResult {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED { return .nothingPending }
            return .failed
        }
        do {
            try configureDescriptor(fd)
            try setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, operation: "setsockopt(TCP_NODELAY)")
        } catch {
            closeDescriptor(fd)
            return .nothingPending
        }
        return .accepted(fd)
    }

    /// Makes a descriptor non-blocking and close-on-exec, and (on Darwin) free of `SIGPIPE`.
    static func configureDescriptor(_ fd: Int32) throws(LoopbackServerError) {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .system(operation: "fcntl(O_NONBLOCK)", code: errno)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        try? setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1, operation: "setsockopt(SO_NOSIGPIPE)")
        #endif
    }

    /// Closes a descriptor, ignoring errors (there is nothing useful to do with them).
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Shuts down the sending side, so the peer reads end-of-stream after our last byte.
    static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads available bytes without blocking.
    ///
    /// - Returns: `.bytes(n)` (n > 0), `.endOfStream`, `.wouldBlock`, or `.failed`.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .endOfStream }
        return classify(errno)
    }

    /// Writes as many bytes as the kernel takes without blocking.
    ///
    /// - Returns: `.bytes(n)`, `.wouldBlock`, or `.failed`.
    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult {
        #if canImport(Glibc)
        let count = Glibc.send(fd, buffer.baseAddress, buffer.count, sendFlags)
        #else
        let count = Darwin.send(fd, buffer.baseAddress, buffer.count, sendFlags)
        #endif
        if count >= 0 { return .bytes(count) }
        return classify(errno)
    }

    /// The outcome of one non-blocking read or write.
    enum IOResult: Equatable {
        case bytes(Int)
        case endOfStream
        case wouldBlock
        case failed
    }

    private static func classify(_ code: Int32) -> IOResult {
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return .wouldBlock }
        return .failed
    }

    private static func setOption(
        _ fd: Int32, level: Int32, name: Int32, value: Int32, operation: String
    ) throws(LoopbackServerError) {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .system(operation: operation, code: errno)
        }
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return address
    }

    private static func boundPort(_ fd: Int32) throws(LoopbackServerError) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw .system(operation: "getsockname", code: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
