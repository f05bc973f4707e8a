import Foundation

/// One reading of a streamed body, from its first byte to its last: the segments in turn, each
/// file opened when the reading reaches it and read a chunk at a time, so no file is ever held
/// in memory. A body sent again (a retry, a redirect) is read by a new reading.
///
/// A reading is shared by the stream that hands the bytes to URLSession and the code that sent
/// the request, on different threads; the lock makes every call safe from any thread, and
/// ``end()`` may come while URLSession still reads (a cancelled task is cancelled after its
/// caller has moved on).
final class BodyReading: @unchecked Sendable {
    /// What one ``read(into:)`` gave.
    enum Chunk: Equatable {
        /// This many bytes, at the start of the buffer.
        case bytes(Int)
        /// The body is read whole.
        case end
        /// A file could not be read: the reading is over, and the request must fail with this.
        case failed(BodyError)
        /// ``end()`` stopped the reading before its end.
        case ended
    }

    /// Where a reading is.
    private enum State {
        /// Under way.
        case reading
        /// Read to its end.
        case whole
        /// Stopped by a file that could not be read.
        case failed(BodyError)
        /// Stopped by ``end()``.
        case ended
    }

    private let lock = NSLock()
    private let segments: [BodySegment]
    /// The segment being read, and how far into it (for bytes in memory).
    private var index = 0
    private var offset = 0
    /// The file of the segment being read, open while it is read.
    private var file: FileHandle?
    private var state = State.reading
    /// The caller of ``failure()`` waiting for the reading to be over.
    private var waiter: CheckedContinuation<Void, any Error>?

    /// A reading of `segments` from the start; nothing is opened until the first read.
    init(segments: [BodySegment]) {
        self.segments = segments
    }

    /// Copies the next bytes of the body into `buffer`, as many as fit and the current segment
    /// holds; a file is read from where the previous call left it.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Chunk {
        let (chunk, waiter) = lock.withLock { () -> (Chunk, CheckedContinuation<Void, any Error>?) in
            let chunk = nextChunk(into: buffer)
            if case .bytes = chunk { return (chunk, nil) }
            return (chunk, takeWaiter())
        }
        if case .failed(let error) = chunk {
            waiter?.resume(throwing: error)
        } else {
            waiter?.resume()
        }
        return chunk
    }

    /// Stops the reading where it is and closes its file; later reads give ``Chunk/ended``.
    /// Does nothing to a reading that is over.
    func end() {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
            guard case .reading = state else { return nil }
            state = .ended
            closeFile()
            return takeWaiter()
        }
        waiter?.resume()
    }

    /// Whether the reading is over: read whole, failed, or ended.
    var isOver: Bool {
        lock.withLock {
            if case .reading = state { return false }
            return true
        }
    }

    /// Why the reading failed, if it did.
    var failure: BodyError? {
        lock.withLock {
            if case .failed(let error) = state { return error }
            return nil
        }
    }

    /// Waits until the reading is over and throws its failure, if it failed; returns at once
    /// when the calling task is cancelled. One caller at a time.
    func failure() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = lock.withLock { () -> Result<Void, BodyError>? in
                    switch state {
                    case .failed(let error): return .failure(error)
                    case .whole, .ended: return .success(())
                    case .reading:
                        // A cancellation before this point is seen here; one after it finds
                        // the waiter, under the same lock.
                        if Task.isCancelled { return .success(()) }
                        waiter = continuation
                        return nil
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            lock.withLock { takeWaiter() }?.resume()
        }
    }

    /// The next chunk; called with the lock held.
    private func nextChunk(into buffer: UnsafeMutableRawBufferPointer) -> Chunk {
        switch state {
        case .reading: break
        case .whole: return .end
        case .failed(let error): return .failed(error)
        case .ended: return .ended
        }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
        while index < segments.count {
            switch segments[index] {
            case .bytes(let data):
                let count = min(buffer.count, data.count - offset)
                if count > 0 {
                    data.withUnsafeBytes { bytes in
                        if let start = bytes.baseAddress { base.copyMemory(from: start + offset, byteCount: count) }
                    }
                    offset += count
                    return .bytes(count)
                }
            case .file(let url):
                do {
                    let handle = try file ?? FileHandle(forReadingFrom: url)
                    file = handle
                    let chunk = try handle.read(upToCount: buffer.count) ?? Data()
                    if !chunk.isEmpty {
                        chunk.copyBytes(to: buffer)
                        return .bytes(chunk.count)
                    }
                } catch {
                    let failure = Self.failure(reading: url, error)
                    state = .failed(failure)
                    closeFile()
                    return .failed(failure)
                }
                closeFile()
            }
            index += 1
            offset = 0
        }
        state = .whole
        return .end
    }

    /// Why the file at `url` could not be read: what ``BodySegment/check(_:)`` says of it now,
    /// or else the system's words for `error`.
    private static func failure(reading url: URL, _ error: any Error) -> BodyError {
        do {
            try BodySegment.check([.file(url)])
        } catch {
            return error
        }
        return .unreadableFile(url.path, reason: error.localizedDescription)
    }

    /// Closes the open file, if any; called with the lock held.
    private func closeFile() {
        try? file?.close()
        file = nil
    }

    /// The waiter, removed; called with the lock held.
    private func takeWaiter() -> CheckedContinuation<Void, any Error>? {
        defer { waiter = nil }
        return waiter
    }
}
