import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's threads: one accept loop plus one thread per connection.
///
/// Plain threads rather than Dispatch work items, because connection handlers block
/// (in `poll`) for as long as a connection lives, and hundreds may be open at once.
extension ServerCore {
    /// Stack size for server threads; handlers need little.
    private static let threadStackSize = 512 * 1024
    /// How long `stop()` waits for threads to notice the wake signal.
    private static let stopGracePeriod: TimeInterval = 10

    /// Starts the accept loop on `listener`, which the loop owns and closes when it ends.
    func startAcceptLoop(listener: Int32) {
        let started = spawnWorker { core in
            core.acceptLoop(listener: listener)
        }
        if !started { Socket.closeDescriptor(listener) }
    }

    /// Stops the server: no new connections, every thread woken, listener and
    /// connections closed. Waits (bounded) until the threads have finished; a call
    /// from a server thread itself does not wait for that thread. Idempotent.
    func stop() {
        if markStopped() { wake.signal() }
        let current = ObjectIdentifier(Thread.current)
        let deadline = Date(timeIntervalSinceNow: Self.stopGracePeriod)
        locked {
            while workers.values.contains(where: { $0 != current }) {
                if !condition.wait(until: deadline) { break }
            }
        }
        // Nothing answers any more: let go of what the server held, so that servers whose
        // dispatchers refer to each other are freed once stopped.
        withExtendedLifetime(takeRoutes()) {}  // released outside the lock
    }

    /// Runs `body` on a new thread unless the server is stopping.
    ///
    /// - Returns: Whether the thread was started.
    private func spawnWorker(_ body: @escaping @Sendable (ServerCore) -> Void) -> Bool {
        let token: UInt64? = locked {
            guard !isStopped else { return nil }
            defer { nextWorkerToken += 1 }
            workers[nextWorkerToken] = .some(nil)
            return nextWorkerToken
        }
        guard let token else { return false }
        let thread = Thread { [self] in
            locked { workers[token] = ObjectIdentifier(Thread.current) }
            body(self)
            locked {
                workers[token] = nil
                condition.broadcast()
            }
        }
        thread.name = "LoopbackServer:\(port)"
        thread.stackSize = Self.threadStackSize
        thread.start()
        return true
    }

    private func acceptLoop(listener: Int32) {
        defer { Socket.closeDescriptor(listener) }
        while true {
            switch wake.wait(for: listener, events: Int16(POLLIN), timeout: nil) {
            case .woken:
                return
            case .timedOut:
                continue
            case .ready:
                acceptPending(listener: listener)
            }
        }
    }

    /// Accepts every connection the listener has queued.
    private func acceptPending(listener: Int32) {
        while true {
            switch Socket.acceptConnection(listener) {
            case .nothingPending:
                return
            case .failed:
                // e.g. out of descriptors: back off instead of spinning on a ready listener.
                _ = wake.sleep(for: .milliseconds(10))
                return
            case let .accepted(fd):
                let index = nextConnectionIndex()
                let started = spawnWorker { core in
                    ConnectionHandler(core: core, io: ConnectionIO(fd: fd, wake: core.wake), index: index).run()
                }
                if !started {
                    Socket.closeDescriptor(fd)
                    return
                }
            }
        }
    }
}
