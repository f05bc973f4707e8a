import Foundation

/// The shared state of one running server: scripting, recorded requests, statistics
/// and the bookkeeping of its threads.
///
/// Every mutable field is guarded by `condition` (an `NSCondition`, i.e. a pthread
/// mutex plus condition variable, which ThreadSanitizer understands). Worker threads
/// hold this object, never the public ``LoopbackServer``, so dropping the last
/// reference to the server runs its `deinit`, which stops everything.
final class ServerCore: @unchecked Sendable {
    typealias Response = LoopbackServer.Response
    typealias RecordedRequest = LoopbackServer.RecordedRequest

    let port: Int
    let wake: WakeSignal
    let condition = NSCondition()

    // Guarded by `condition`:
    var isStopped = false
    private var queue: [Response] = []
    private var dispatcher: LoopbackServer.Dispatcher?
    private var pending: [RecordedRequest] = []
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<RecordedRequest?, Never>)] = []
    private var nextWaiterID: UInt64 = 0
    private var requestCount = 0
    private var connectionCount = 0
    private var inFlight = 0
    private var peak = 0
    private var recording = LoopbackServer.BodyRecording.keep
    /// Live worker threads: token → the thread's identity once it runs.
    var workers: [UInt64: ObjectIdentifier?] = [:]
    var nextWorkerToken: UInt64 = 0

    init(port: Int, wake: WakeSignal, dispatcher: LoopbackServer.Dispatcher?) {
        self.port = port
        self.wake = wake
        self.dispatcher = dispatcher
    }

    /// Runs `body` while holding the lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: - Scripting

    func enqueue(_ response: Response) {
        locked { queue.append(response) }
    }

    var queuedResponseCount: Int { locked { queue.count } }

    /// What the connections keep of the bodies they read next.
    var bodyRecording: LoopbackServer.BodyRecording {
        get { locked { recording } }
        set { locked { recording = newValue } }
    }

    var currentDispatcher: LoopbackServer.Dispatcher? {
        get { locked { dispatcher } }
        set { locked { dispatcher = newValue } }
    }

    /// Removes the dispatcher and the queued responses and gives them back, for the caller to
    /// release outside the lock.
    func takeRoutes() -> (LoopbackServer.Dispatcher?, [Response]) {
        locked {
            defer {
                dispatcher = nil
                queue.removeAll()
            }
            return (dispatcher, queue)
        }
    }

    /// Removes and reports a queued `closeAtStart` response at the head of the queue.
    func takeQueuedCloseAtStart() -> Bool {
        locked {
            guard queue.first?.fault == .closeAtStart else { return false }
            queue.removeFirst()
            return true
        }
    }

    /// The response for `request`: the next queued one, else the dispatcher's, else a 404.
    func response(for request: RecordedRequest) -> Response {
        let (queued, route) = locked { () -> (Response?, LoopbackServer.Dispatcher?) in
            queue.isEmpty ? (nil, dispatcher) : (queue.removeFirst(), nil)
        }
        if let queued { return queued }
        if let route { return route(request) }
        return .text(
            "LoopbackServer: no response enqueued and no dispatcher set for \(request.method) \(request.target)\n",
            status: 404
        )
    }

    // MARK: - Recording

    /// Gives the next connection its index.
    func nextConnectionIndex() -> Int {
        locked {
            defer { connectionCount += 1 }
            return connectionCount
        }
    }

    /// Numbers a fully read request, counts it as in flight and hands it to a taker.
    func record(_ head: RequestHead, body: ReceivedBody, connectionIndex: Int, onConnection: Int) -> RecordedRequest {
        var kept = Data()
        var digest: LoopbackServer.BodyDigest?
        switch body {
        case .kept(let bytes): kept = bytes
        case .digested(let summary): digest = summary
        }
        condition.lock()
        var request = RecordedRequest(
            method: head.method,
            target: head.target,
            httpVersion: head.version,
            headers: head.headers,
            body: kept,
            sequenceNumber: requestCount,
            connectionIndex: connectionIndex,
            connectionSequenceNumber: onConnection
        )
        request.discardedBodyDigest = digest
        requestCount += 1
        inFlight += 1
        peak = max(peak, inFlight)
        var waiter: CheckedContinuation<RecordedRequest?, Never>?
        if waiters.isEmpty {
            pending.append(request)
            condition.broadcast()
        } else {
            waiter = waiters.removeFirst().continuation
        }
        condition.unlock()
        waiter?.resume(returning: request)
        return request
    }

    /// Marks one request as answered (or abandoned).
    func finishRequest() {
        locked { inFlight -= 1 }
    }

    var statistics: (requests: Int, connections: Int, inFlight: Int, peak: Int) {
        locked { (requestCount, connectionCount, inFlight, peak) }
    }

    func resetPeak() {
        locked { peak = inFlight }
    }

    // MARK: - Taking requests

    /// Waits on the calling thread for the next request, at most `timeout`.
    func takeRequest(timeout: Duration) -> RecordedRequest? {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        return locked {
            while pending.isEmpty, !isStopped {
                if !condition.wait(until: deadline) { break }
            }
            return pending.isEmpty ? nil : pending.removeFirst()
        }
    }

    /// Suspends until the next request arrives, `timeout` elapses, the task is
    /// cancelled or the server stops. Never blocks a thread while waiting.
    func takeRequest(timeout: Duration) async -> RecordedRequest? {
        let id = locked {
            defer { nextWaiterID += 1 }
            return nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                addWaiter(id: id, continuation: continuation, timeout: timeout)
            }
        } onCancel: {
            removeWaiter(id: id)
        }
    }

    private func addWaiter(id: UInt64, continuation: CheckedContinuation<RecordedRequest?, Never>, timeout: Duration) {
        condition.lock()
        if !pending.isEmpty {
            let request = pending.removeFirst()
            condition.unlock()
            continuation.resume(returning: request)
        } else if isStopped || Task.isCancelled || timeout <= .zero {
            condition.unlock()
            continuation.resume(returning: nil)
        } else {
            waiters.append((id, continuation))
            condition.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [weak self] in
                self?.removeWaiter(id: id)
            }
        }
    }

    /// Resumes waiter `id` with `nil` if it is still waiting.
    private func removeWaiter(id: UInt64) {
        let continuation = locked { () -> CheckedContinuation<RecordedRequest?, Never>? in
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: nil)
    }

    /// Marks the core stopped and wakes every waiting taker. Returns `false` if it already was.
    func markStopped() -> Bool {
        condition.lock()
        guard !isStopped else {
            condition.unlock()
            return false
        }
        isStopped = true
        let abandoned = waiters
        waiters.removeAll()
        condition.broadcast()
        condition.unlock()
        for waiter in abandoned { waiter.continuation.resume(returning: nil) }
        return true
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
