// The two clients of section 12 that use URLSession without the package: a delegate that splits
// events as they arrive (scenario a), and a delegate that turns the body into an asynchronous
// sequence of bytes, as `URLSession.bytes(for:)` does on Apple platforms, for mattt/EventSource
// to read (scenario e).

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Scenario a: a `URLSessionDataDelegate` that splits each body into events as its chunks
/// arrive, with ``EventSplitter``, and counts them; one transfer at a time.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class SplittingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var splitter = EventSplitter()
    private var events = 0
    private var status = 0
    private var done: CheckedContinuation<Int, any Error>?

    /// Sends `request` on `session` (whose delegate this is) and returns the number of events
    /// of its body once it has ended.
    func events(of request: URLRequest, on session: URLSession) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock {
                splitter = EventSplitter()
                events = 0
                status = 0
                done = continuation
            }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        lock.withLock { self.status = status }
        completionHandler(status == 200 ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            events += splitter.split(data) { event in keep(event) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, events, status) = lock.withLock {
            defer { done = nil }
            return (done, self.events, self.status)
        }
        if status != 200 {
            continuation?.resume(throwing: ScenarioError.status(status))
        } else if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume(returning: events)
        }
    }
}

/// Scenario e's transport: a `URLSessionDataDelegate` whose body arrives as an
/// ``AsyncBodyBytes`` sequence, as `URLSession.bytes(for:)` gives it on Apple platforms (which
/// swift-corelibs-foundation lacks); one transfer at a time.
///
/// The chunks wait in an unbounded `AsyncThrowingStream`: a reader slower than the network
/// holds whatever has arrived.
///
/// - Note: Owns a lock that guards its state, hence `@unchecked Sendable`.
final class ByteStreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: AsyncThrowingStream<Data, any Error>.Continuation?
    private var head: CheckedContinuation<Void, any Error>?

    /// Sends `request` on `session` (whose delegate this is) and returns its body's bytes once
    /// its head has arrived with status 200.
    func bytes(of request: URLRequest, on session: URLSession) async throws -> AsyncBodyBytes {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let task = session.dataTask(with: request)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
                lock.withLock {
                    chunks = continuation
                    head = started
                }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        continuation.onTermination = { _ in task.cancel() }
        return AsyncBodyBytes(chunks: stream)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let head = lock.withLock {
            defer { self.head = nil }
            return self.head
        }
        completionHandler(status == 200 ? .allow : .cancel)
        if status == 200 {
            head?.resume()
        } else {
            head?.resume(throwing: ScenarioError.status(status))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let chunks = lock.withLock { self.chunks }
        chunks?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (head, chunks) = lock.withLock {
            defer {
                self.head = nil
                self.chunks = nil
            }
            return (self.head, self.chunks)
        }
        head?.resume(throwing: error ?? ScenarioError.status(0))
        chunks?.finish(throwing: error)
    }
}

/// The bytes of a body as an asynchronous sequence, one at a time, read from its chunks: the
/// shape of Apple's `URLSession.AsyncBytes`, which mattt/EventSource's `events` reads. A byte
/// within the current chunk comes without suspending.
public struct AsyncBodyBytes: AsyncSequence, Sendable {
    public typealias Element = UInt8

    let chunks: AsyncThrowingStream<Data, any Error>

    /// Bytes read from `chunks`.
    public init(chunks: AsyncThrowingStream<Data, any Error>) {
        self.chunks = chunks
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator())
    }

    /// Reads the bytes of one chunk after another.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator
        var chunk = Data()
        var index = 0

        public mutating func next() async throws -> UInt8? {
            while index == chunk.endIndex {
                guard let next = try await chunks.next() else { return nil }
                chunk = next
                index = next.startIndex
            }
            defer { index += 1 }
            return chunk[index]
        }
    }
}

/// Scenario h's delegate queue: on swift-corelibs-foundation, it runs each callback at once on
/// the thread that hands it over (URLSession's own), as the package's session does; elsewhere
/// `nil` (URLSession's own serial queue).
///
/// - Note: Adds no state: its `@unchecked Sendable` is `OperationQueue`'s own.
final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
    static func make() -> OperationQueue? {
        #if canImport(FoundationNetworking)
        InlineOperationQueue()
        #else
        nil
        #endif
    }

    #if canImport(FoundationNetworking)
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
    #endif
}
