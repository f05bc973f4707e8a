import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP listener on 127.0.0.1 that takes one connection, reads its request head, and reads
/// nothing more until ``release()``: then it reads and drops everything until the client
/// closes. While it holds, an upload stalls once the socket's buffers are full, so a test can
/// act in the middle of a body without racing it. It never answers.
final class HeldReader: @unchecked Sendable {
    let port: Int
    private let gate = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var headArrived = false
    private var stopped = false

    /// Listens on a free port of 127.0.0.1, on a thread of its own.
    init() throws {
        let (descriptor, port) = try bindLoopbackSocket()
        guard listen(descriptor, 1) == 0 else {
            close(descriptor)
            throw RawListener.Failure(description: "listen failed: errno \(errno)")
        }
        self.port = port
        Thread { [self] in
            serve(descriptor)
            close(descriptor)
            finished.signal()
        }.start()
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Whether the request head has arrived.
    var hasHead: Bool {
        lock.withLock { headArrived }
    }

    /// Lets the reading go on: everything still to come is read and dropped.
    func release() {
        gate.signal()
    }

    /// Stops the listener (releasing it if it holds) and waits, at most 5 seconds, for its thread.
    func stop() {
        lock.withLock { stopped = true }
        gate.signal()
        _ = finished.wait(timeout: .now() + 5)
    }

    private var isStopped: Bool {
        lock.withLock { stopped }
    }

    private func serve(_ listener: Int32) {
        guard let client = acceptOne(listener) else { return }
        defer { close(client) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var head = Data()
        while !isStopped, head.range(of: Data("\r\n\r\n".utf8)) == nil {
            guard let count = receive(client, into: &chunk), count > 0 else { return }
            head.append(contentsOf: chunk[0..<count])
        }
        lock.withLock { headArrived = true }
        // Held: the client's sends fill the socket's buffers and stop there.
        _ = gate.wait(timeout: .now() + 60)
        while !isStopped, let count = receive(client, into: &chunk), count > 0 {}
    }

    /// Accepts one connection, polling every 20 ms until the listener is stopped.
    private func acceptOne(_ listener: Int32) -> Int32? {
        while !isStopped {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0 else { continue }
            let client = accept(listener, nil, nil)
            if client >= 0 { return client }
        }
        return nil
    }

    /// Receives what is there within 20 ms: the count, 0 at the client's close, `nil` on an
    /// error; waits again while nothing came and the listener runs.
    private func receive(_ client: Int32, into chunk: inout [UInt8]) -> Int? {
        while !isStopped {
            var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0 else { continue }
            let count = recv(client, &chunk, chunk.count, 0)
            return count >= 0 ? count : nil
        }
        return nil
    }
}
