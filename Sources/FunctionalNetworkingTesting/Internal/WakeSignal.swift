#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot, process-local alarm that wakes every thread blocked in `wait`.
///
/// It is a pipe whose read end every waiter polls alongside its own descriptor.
/// `signal()` writes one byte and nobody ever reads it, so once signalled the pipe
/// stays readable and every present and future `wait` returns `.woken` at once.
/// The pipe is closed in `deinit`, i.e. only when no thread can still poll it.
final class WakeSignal: Sendable {
    private let readFD: Int32
    private let writeFD: Int32

    /// What ended a `wait`.
    enum Outcome: Equatable {
        /// The watched descriptor is ready (or in error; the next I/O call tells which).
        case ready
        /// The signal fired: the server is stopping.
        case woken
        /// The timeout elapsed first.
        case timedOut
    }

    /// Creates the pipe.
    ///
    /// - Throws: `LoopbackServerError.system` when the pipe cannot be created.
    init() throws(LoopbackServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system(operation: "pipe", code: errno) }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        Socket.closeDescriptor(readFD)
        Socket.closeDescriptor(writeFD)
    }

    /// Fires the signal. Calling it more than once is harmless.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Whether the signal has fired.
    var isSignalled: Bool {
        wait(for: nil, events: 0, timeout: .zero) == .woken
    }

    /// Blocks until `fd` has one of `events`, the signal fires, or `timeout` elapses.
    ///
    /// - Parameters:
    ///   - fd: The descriptor to watch, or `nil` to wait only for the signal.
    ///   - events: `poll` events of interest for `fd`, e.g. `POLLIN`.
    ///   - timeout: The longest wait, or `nil` to wait without limit.
    /// - Returns: Why the wait ended. The signal wins over readiness.
    func wait(for fd: Int32?, events: Int16, timeout: Duration?) -> Outcome {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        if let fd { fds.append(pollfd(fd: fd, events: events, revents: 0)) }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                milliseconds = Self.milliseconds(until: deadline, clock: clock)
            }
            let result = poll(&fds, nfds_t(fds.count), milliseconds)
            if result < 0 {
                if errno == EINTR { continue }
                return .ready  // Let the caller's next I/O call surface the failure.
            }
            if fds[0].revents != 0 { return .woken }
            if fds.count > 1, fds[1].revents != 0 { return .ready }
            if let deadline, clock.now >= deadline { return .timedOut }
        }
    }

    /// Sleeps for `duration` unless the signal fires first.
    ///
    /// - Returns: `true` when the full duration elapsed, `false` when woken.
    func sleep(for duration: Duration) -> Bool {
        guard duration > .zero else { return !isSignalled }
        return wait(for: nil, events: 0, timeout: duration) == .timedOut
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Int32 {
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        guard seconds < 1_000_000 else { return Int32.max }
        let millis = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
