import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 that refuses every connection for as long as this value lives.
///
/// A socket is bound to the port and never listens: connecting fails with "connection
/// refused", and no other socket, such as the LoopbackServer of a test running at the same
/// time, can be given the port. A stopped LoopbackServer's port is no substitute: the system
/// may hand it to another test's server, which then answers the request meant to fail and
/// counts a request it never expected.
final class RefusingPort: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try bindLoopbackSocket()
    }

    deinit {
        close(descriptor)
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }
}

/// A TCP socket bound to a free port of 127.0.0.1, not yet listening, and that port.
func bindLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw RefusingPort.Failure(description: "socket failed: errno \(errno)") }
    var address = sockaddr_in()
    #if canImport(Darwin)
    address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else {
        let code = errno
        close(descriptor)
        throw RefusingPort.Failure(description: "bind or getsockname failed: errno \(code)")
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}
