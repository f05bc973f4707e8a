import Foundation

/// The bytes of one streamed body on their way from whoever delivers them (the session's
/// delegate, or a task reading a sequence) to the one reader, with the stream's limits kept
/// as they arrive.
///
/// Invariants, all under ``lock``:
/// - The channel ends once (``ending``): finished, failed, or cancelled by the reader; what
///   arrives after is dropped, and the end observers run once, outside the lock, before a
///   waiting reader is resumed.
/// - A reader waits (``waiter``) only while nothing is buffered, so a chunk that arrives then
///   goes to it directly, and an ending with chunks still buffered reaches the reader after them
///   (a cancellation, a reader that fell behind and a line too long drop them at once).
/// - Where the transfer can be paused (Apple platforms: its URLSession task is suspended), it
///   is paused once ``highWater`` bytes wait, until the reader has brought them down to
///   ``lowWater``. Where it cannot (Linux: swift-corelibs-foundation restarts a suspended
///   transfer, and one thread runs the callbacks of every session of the process, which must
///   never wait on a reader), the reader takes what waits as one chunk (up to ``batchLimit``
///   bytes), so it catches up in large bites whenever it reads faster than the network, and a
///   reader that falls ``fellBehindLimit`` bytes behind ends the stream rather than fill
///   memory.
final class StreamChannel: @unchecked Sendable {
    /// Bytes buffered at which the transfer is paused, where it can be.
    static let highWater = 1 << 20
    /// Bytes buffered at which a paused transfer is resumed.
    static let lowWater = 256 << 10
    /// Bytes buffered at which the stream fails with ``StreamError/fellBehind(limit:url:)``.
    static let fellBehindLimit = 32 << 20
    /// The most bytes of waiting chunks the reader takes as one.
    static let batchLimit = 1 << 20

    /// What the deliverer is asked to do to its transfer.
    struct Controls: Sendable {
        /// Cancels the transfer: the reader left, or a limit was passed.
        var cancel: @Sendable () -> Void = {}
        /// Pauses the transfer (`nil` where it cannot be paused).
        var pause: (@Sendable () -> Void)?
        /// Resumes a paused transfer.
        var resume: (@Sendable () -> Void)?
    }

    /// The stream's limits.
    let limits: StreamLimits
    /// The redacted URL, for error texts.
    let url: String

    /// Guards every field below.
    private let lock = NSLock()
    private var controls: Controls
    private var chunks: [Data] = []
    /// The index of the next chunk to read in ``chunks``.
    private var head = 0
    private var buffered = 0
    private var received = 0
    private var ending: Result<Void, any Error>?
    private var waiter: CheckedContinuation<Data?, any Error>?
    private var roomWaiter: CheckedContinuation<Void, Never>?
    private var isPaused = false
    private var isClaimed = false
    private var lastActivity = ContinuousClock.now
    private var endObservers: [@Sendable (Int, (any Error)?) -> Void] = []
    private var watchdog: Task<Void, Never>?

    /// A channel for a stream from `url` (redacted) under `limits`; `controls` act on its
    /// transfer.
    init(limits: StreamLimits, url: String, controls: Controls = Controls(), watchesIdleness: Bool = true) {
        self.limits = limits
        self.url = url
        self.controls = controls
        if watchesIdleness, limits.idleTimeout != nil {
            startWatchdog()
        }
    }

    /// A channel that holds `data` and has finished: the body of a transport that returned it
    /// whole (nothing more arrives, so nothing watches for silence).
    convenience init(finished data: Data, limits: StreamLimits, url: String) {
        self.init(limits: limits, url: url, watchesIdleness: false)
        if !data.isEmpty { deliver(data) }
        finish()
    }

    /// Sets what the channel's controls do, once the transfer that feeds it is known.
    func setControls(_ controls: Controls) {
        lock.withLock { self.controls = controls }
    }

    // MARK: - The reader

    /// Claims the channel for its one reader: `false` when it was claimed before.
    func claim() -> Bool {
        lock.withLock {
            defer { isClaimed = true }
            return !isClaimed
        }
    }

    /// What the reader gets without waiting: a chunk, or the end.
    private enum Ready {
        case chunk(Data)
        case end
    }

    /// The next chunk, or `nil` at the end of the stream; throws the error that ended it.
    /// Cancelling the calling task cancels the stream.
    func next() async throws -> Data? {
        if Task.isCancelled {
            cancel()
            throw CancellationError()
        }
        if let ready = try take(orWaitWith: nil) {
            return ready
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                do {
                    if let ready = try take(orWaitWith: continuation) {
                        continuation.resume(returning: ready)
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next chunk (`.some(nil)` at the end); or, when there is none yet, installs
    /// `continuation` as the waiting reader (when given) and returns `nil`.
    private func take(orWaitWith continuation: CheckedContinuation<Data?, any Error>?) throws -> Data?? {
        let (ready, resume): (Result<Ready, any Error>?, (@Sendable () -> Void)?) = lock.withLock {
            let ready = takeLocked()
            if ready == nil, let continuation {
                waiter = continuation
            }
            return (ready, resumeIfDrainedLocked())
        }
        resume?()
        wakeProducer()
        switch ready {
        case .success(.chunk(let chunk)): return .some(chunk)
        case .success(.end): return .some(nil)
        case .failure(let error): throw error
        case nil: return nil
        }
    }

    private func takeLocked() -> Result<Ready, any Error>? {
        if head < chunks.count {
            var chunk = chunks[head]
            chunks[head] = Data()
            head += 1
            // A reader that fell behind takes what waits as one chunk, and so catches up.
            while head < chunks.count, chunk.count + chunks[head].count <= Self.batchLimit {
                chunk.append(chunks[head])
                chunks[head] = Data()
                head += 1
            }
            buffered -= chunk.count
            if head == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= chunks.count {
                chunks.removeFirst(head)
                head = 0
            }
            return .success(.chunk(chunk))
        }
        switch ending {
        case .success: return .success(.end)
        case .failure(let error): return .failure(error)
        case nil: return nil
        }
    }

    /// The resume control when the transfer is paused and the buffer has drained enough.
    private func resumeIfDrainedLocked() -> (@Sendable () -> Void)? {
        guard isPaused, buffered <= Self.lowWater else { return nil }
        isPaused = false
        lastActivity = .now
        return controls.resume
    }

    /// Lets a producer waiting for room go on.
    private func wakeProducer() {
        let room: CheckedContinuation<Void, Never>? = lock.withLock {
            guard buffered < Self.highWater || ending != nil else { return nil }
            defer { roomWaiter = nil }
            return roomWaiter
        }
        room?.resume()
    }

    /// Cancels the stream: its reader left. Buffered bytes are dropped, a waiting reader gets
    /// `CancellationError`, and the transfer is cancelled.
    func cancel() {
        end(.failure(CancellationError()), dropBuffer: true, cancelTransfer: true)
    }

    // MARK: - The deliverer

    /// Passes `data`, the next bytes of the body, to the reader, keeping the limits.
    func deliver(_ data: Data) {
        var failure: (any Error)?
        var pause: (@Sendable () -> Void)?
        let direct: CheckedContinuation<Data?, any Error>? = lock.withLock {
            guard ending == nil else { return nil }
            received += data.count
            lastActivity = .now
            if let maximum = limits.maximumSize, received > maximum {
                failure = TransportError.responseTooLarge(limit: maximum, url: url)
                return nil
            }
            if let waiter {
                self.waiter = nil
                return waiter
            }
            chunks.append(data)
            buffered += data.count
            if buffered > Self.fellBehindLimit {
                failure = StreamError.fellBehind(limit: Self.fellBehindLimit, url: url)
            } else if buffered >= Self.highWater, !isPaused, let control = controls.pause {
                isPaused = true
                pause = control
            }
            return nil
        }
        if let failure {
            // What arrived within the size limit is still read; a reader that fell behind gets
            // none of what it left waiting.
            end(.failure(failure), dropBuffer: failure is StreamError, cancelTransfer: true)
        }
        pause?()
        direct?.resume(returning: data)
    }

    /// Waits until the reader has room for more (the buffer is under ``highWater``), or the
    /// stream has ended. For one producer at a time.
    func waitForRoom() async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock {
                if buffered < Self.highWater || ending != nil { return true }
                roomWaiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Whether the stream has ended (finished, failed or cancelled).
    var hasEnded: Bool {
        lock.withLock { ending != nil }
    }

    /// Ends the stream: finished when `error` is `nil`, else failed with it once the reader has
    /// read what arrived before.
    func finish(throwing error: (any Error)? = nil) {
        end(error.map { .failure($0) } ?? .success(()), dropBuffer: false, cancelTransfer: false)
    }

    /// Fails the stream with `error` at once (dropping what is buffered) and cancels the
    /// transfer: a limit the reader keeps (a line too long) was passed.
    func fail(_ error: any Error) {
        end(.failure(error), dropBuffer: true, cancelTransfer: true)
    }

    /// Runs `observer` once the stream ends, with the bytes it brought and the error that ended
    /// it (`CancellationError` when the reader left); at once when it has ended.
    func whenEnded(_ observer: @escaping @Sendable (_ bytes: Int, _ error: (any Error)?) -> Void) {
        let ended: (Int, (any Error)?)? = lock.withLock {
            guard let ending else {
                endObservers.append(observer)
                return nil
            }
            if case .failure(let error) = ending { return (received, error) }
            return (received, nil)
        }
        if let (bytes, error) = ended { observer(bytes, error) }
    }

    private func end(_ outcome: Result<Void, any Error>, dropBuffer: Bool, cancelTransfer: Bool) {
        let ended:
            (
                waiter: CheckedContinuation<Data?, any Error>?, room: CheckedContinuation<Void, Never>?,
                observers: [@Sendable (Int, (any Error)?) -> Void], bytes: Int, cancel: (@Sendable () -> Void)?,
                watchdog: Task<Void, Never>?
            )? = lock.withLock {
                guard ending == nil else { return nil }
                ending = outcome
                if dropBuffer {
                    chunks = []
                    head = 0
                    buffered = 0
                }
                defer {
                    waiter = nil
                    roomWaiter = nil
                    endObservers = []
                    watchdog = nil
                }
                return (waiter, roomWaiter, endObservers, received, cancelTransfer ? controls.cancel : nil, watchdog)
            }
        guard let ended else { return }
        ended.watchdog?.cancel()
        ended.cancel?()
        ended.room?.resume()
        // The observers (a log's end record) first: a reader that sees the end finds them done.
        let error: (any Error)? = if case .failure(let error) = outcome { error } else { nil }
        for observer in ended.observers {
            observer(ended.bytes, error)
        }
        switch outcome {
        case .success: ended.waiter?.resume(returning: nil)
        case .failure(let error): ended.waiter?.resume(throwing: error)
        }
    }

    // MARK: - The idle limit

    /// Starts the task that fails the stream once no bytes have arrived for the idle limit: one
    /// task a stream, asleep until the earliest moment the limit could be passed.
    private func startWatchdog() {
        let task = Task { [weak self] in
            while let deadline = self?.idleDeadline() {
                try? await Task.sleep(until: deadline, clock: .continuous)
            }
        }
        lock.withLock { watchdog = task }
    }

    /// When the idle limit would next be passed; `nil` once the stream has ended (failing it
    /// when the limit has been passed).
    private func idleDeadline() -> ContinuousClock.Instant? {
        guard let limit = limits.idleTimeout else { return nil }
        let passed: Bool = lock.withLock {
            guard ending == nil else { return false }
            if isPaused { lastActivity = .now }
            return lastActivity.advanced(by: limit) <= .now
        }
        if passed {
            end(.failure(StreamError.idleTimeout(limit: limit, url: url)), dropBuffer: false, cancelTransfer: true)
            return nil
        }
        return lock.withLock { ending == nil ? lastActivity.advanced(by: limit) : nil }
    }
}
