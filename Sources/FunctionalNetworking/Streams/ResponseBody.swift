import Foundation

/// The body of a ``StreamedResponse``: its bytes as they arrive, in chunks of whatever size the
/// network gives, read once.
///
/// ```swift
/// let response = try await stream(.export, through: transport)
/// for try await chunk in response.body {
///     try file.write(contentsOf: chunk)
/// }
/// ```
///
/// Read it as chunks, as ``lines``, or as Server-Sent ``events``. A body is read once: a second
/// reading throws ``StreamError/alreadyConsumed``.
///
/// **Stopping.** Leaving the loop (`break`, `return`, an error), cancelling the task that
/// reads, or dropping the body unread cancels the transfer at once; nothing keeps running.
///
/// **Memory.** A reader that keeps up holds about one chunk. Where URLSession can pause a
/// transfer (Apple platforms) a reader that falls behind pauses it once about 1 MiB is
/// waiting; where it cannot (Linux) the stream fails with ``StreamError/fellBehind(limit:url:)``
/// once 32 MiB is waiting, rather than fill memory.
///
/// **In tests** make a body from data or from any sequence of chunks, and a service that reads
/// streams needs no server:
///
/// ```swift
/// let body = ResponseBody(Data("data: {\"price\": 42}\n\n".utf8))
/// for try await event in body.events { print(event.data) }   // {"price": 42}
/// ```
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data
    /// Any error that ends the stream.
    public typealias Failure = any Error

    /// Holds the channel for the body and every copy of it; the last one to go cancels an
    /// unread or unfinished stream.
    final class Handle: Sendable {
        let channel: StreamChannel

        init(_ channel: StreamChannel) {
            self.channel = channel
        }

        deinit {
            channel.cancel()
        }
    }

    let handle: Handle

    init(channel: StreamChannel) {
        handle = Handle(channel)
    }

    /// A body that holds `data` and ends: the answer of a stub, or a ready body in a test.
    ///
    /// ```swift
    /// let body = ResponseBody(Data("first\nsecond\n".utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - data: The whole body.
    ///   - limits: The limits to read it under (its line limit, say); the defaults unless you say.
    public init(_ data: Data, limits: StreamLimits = .default) {
        self.init(channel: StreamChannel(finished: data, limits: limits, url: "(a ready body)"))
    }

    /// A body whose chunks come from `chunks`, read only as fast as the body is: a stream of
    /// your own, or chunks with pauses in a test.
    ///
    /// ```swift
    /// let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
    /// let body = ResponseBody(chunks)
    /// continuation.yield(Data("data: hello\n\n".utf8))
    /// continuation.finish()
    /// ```
    ///
    /// The sequence's error ends the body with that error; dropping the body cancels the task
    /// that reads the sequence.
    ///
    /// - Parameters:
    ///   - chunks: The chunks, in order.
    ///   - limits: The limits to read them under; the defaults unless you say.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, limits: StreamLimits = .default)
    where Chunks.Element == Data {
        let channel = StreamChannel(limits: limits, url: "(a sequence of chunks)")
        let pump = Task {
            do {
                for try await chunk in chunks {
                    await channel.waitForRoom()
                    guard !channel.hasEnded else { return }
                    channel.deliver(chunk)
                }
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        channel.setControls(StreamChannel.Controls(cancel: { pump.cancel() }))
        self.init(channel: channel)
    }

    /// The limits the body is read under.
    public var limits: StreamLimits {
        handle.channel.limits
    }

    /// Reads the whole body into memory, at most `limit` bytes of it.
    ///
    /// ```swift
    /// let data = try await response.body.collect(upTo: 1 << 20)
    /// ```
    ///
    /// - Parameter limit: The most bytes to keep.
    /// - Returns: The body.
    /// - Throws: ``TransportError/responseTooLarge(limit:url:)`` past `limit` (the transfer is
    ///   cancelled), or the error that ended the stream.
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else {
                handle.channel.cancel()
                throw TransportError.responseTooLarge(limit: limit, url: handle.channel.url)
            }
            data.append(chunk)
        }
        return data
    }

    /// Reads the body's chunks; the first reader claims the body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: handle, isReader: handle.channel.claim())
    }

    /// Reads the chunks of a ``ResponseBody`` as they arrive.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: Handle
        let isReader: Bool

        /// The next chunk, waiting for it; `nil` at the end of the body.
        ///
        /// - Throws: The error that ended the stream (``TransportError``, ``StreamError``,
        ///   `CancellationError` when the reading task was cancelled).
        public mutating func next() async throws -> Data? {
            try await next(isolation: nil)
        }

        /// The next chunk, waiting for it in the caller's isolation; `nil` at the end of the
        /// body.
        ///
        /// - Parameter actor: The caller's actor, if any.
        /// - Throws: The error that ended the stream.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Data? {
            guard isReader else { throw StreamError.alreadyConsumed }
            return try await handle.channel.next()
        }
    }
}
