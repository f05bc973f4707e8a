import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP listener on 127.0.0.1 for what LoopbackServer is too correct for: it counts the
/// connections and keeps every byte it receives, as received, and answers each request head
/// (each `\r\n\r\n`, on any connection) with whatever bytes the test scripts, such as a
/// response with two different `Content-Length` fields.
///
/// A request with a body is not framed: these tests send none. Every wait is bounded: the
/// threads poll every 20 ms and stop within a poll of ``stop()``, which every test must call
/// (`defer { listener.stop() }`).
final class RawListener: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    private let descriptor: Int32
    /// The bytes to answer the request head numbered `index` (from 0, across connections)
    /// with; `nil` closes that connection instead.
    private let answer: @Sendable (_ index: Int) -> Data?
    private let lock = NSLock()
    private var isStopped = false
    private var acceptedConnections = 0
    private var receivedBytes = Data()
    private var heads = 0
    private let threads = DispatchGroup()

    /// Listens on a free port of 127.0.0.1.
    ///
    /// - Parameter answer: The bytes to answer request head `index` with, `nil` to close.
    init(answer: @escaping @Sendable (_ index: Int) -> Data?) throws {
        let (descriptor, port) = try bindLoopbackSocket()
        guard listen(descriptor, 16) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "listen failed: errno \(code)")
        }
        self.descriptor = descriptor
        self.port = port
        self.answer = answer
        threads.enter()
        Thread { [self] in
            acceptConnections()
            threads.leave()
        }.start()
    }

    /// Answers every request head with `response`, keeping the connection open.
    convenience init(always response: String) throws {
        let bytes = Data(response.utf8)
        try self.init { _ in bytes }
    }

    deinit {
        close(descriptor)  // the threads hold the listener: they have ended
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// How many connections were accepted.
    var connections: Int {
        lock.withLock { acceptedConnections }
    }

    /// How many request heads arrived (each ends with an empty line).
    var requestHeads: Int {
        lock.withLock { heads }
    }

    /// Every byte received, on every connection, in order of arrival.
    var received: Data {
        lock.withLock { receivedBytes }
    }

    /// ``received`` as text.
    var receivedText: String {
        String(decoding: received, as: UTF8.self)
    }

    /// Stops accepting and closes every connection; waits at most 5 seconds for the threads.
    func stop() {
        lock.withLock { isStopped = true }
        _ = threads.wait(timeout: .now() + 5)
    }

    private var stopped: Bool {
        lock.withLock { isStopped }
    }

    private func acceptConnections() {
        while !stopped {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0 else { continue }
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { continue }
            #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            lock.withLock { acceptedConnections += 1 }
            threads.enter()
            Thread { [self] in
                serve(client)
                close(client)
                threads.leave()
            }.start()
        }
    }

    /// Reads `client` until it closes or the listener stops, answering each request head.
    private func serve(_ client: Int32) {
        let endOfHead = Data("\r\n\r\n".utf8)
        var pending = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !stopped {
            var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0 else { continue }
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            lock.withLock { receivedBytes.append(contentsOf: chunk[0..<count]) }
            pending.append(contentsOf: chunk[0..<count])
            while let end = pending.range(of: endOfHead) {
                pending.removeSubrange(pending.startIndex..<end.upperBound)
                let index = lock.withLock {
                    heads += 1
                    return heads - 1
                }
                guard let bytes = answer(index), send(bytes, to: client) else { return }
            }
        }
    }

    private func send(_ data: Data, to client: Int32) -> Bool {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(client, raw.baseAddress! + offset, raw.count - offset, 0)
                #endif
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
