import Foundation

extension ResponseBody {
    /// The body as lines of text, each as soon as its end has arrived.
    ///
    /// ```swift
    /// for try await line in response.body.lines {
    ///     print(line)
    /// }
    /// ```
    ///
    /// A line ends with LF, CRLF or CR, which the line does not include; the last line is given
    /// even without an end. The bytes are UTF-8 (an invalid sequence becomes U+FFFD). A line may
    /// hold at most the body's ``StreamLimits/maximumLineLength`` bytes; past that the stream
    /// fails with ``StreamError/lineTooLong(limit:)``, having held about that much of it.
    public var lines: Lines {
        Lines(body: self)
    }

    /// The lines of a ``ResponseBody``, as ``ResponseBody/lines`` describes.
    public struct Lines: AsyncSequence, Sendable {
        /// A line, without its end.
        public typealias Element = String
        /// Any error that ends the stream.
        public typealias Failure = any Error

        let body: ResponseBody

        /// Reads the lines; the first reader claims the body.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: body.makeAsyncIterator(), limit: body.limits.maximumLineLength)
        }

        /// Reads the lines of a body as they arrive.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: ResponseBody.AsyncIterator
            var splitter: LineSplitter

            init(chunks: ResponseBody.AsyncIterator, limit: Int) {
                self.chunks = chunks
                splitter = LineSplitter(limit: limit)
            }

            /// The next line, waiting for its end; `nil` after the last.
            ///
            /// - Throws: ``StreamError/lineTooLong(limit:)``, or the error that ended the stream.
            public mutating func next() async throws -> String? {
                try await next(isolation: nil)
            }

            /// The next line, waiting for its end in the caller's isolation; `nil` after the
            /// last.
            ///
            /// - Parameter actor: The caller's actor, if any.
            /// - Throws: ``StreamError/lineTooLong(limit:)``, or the error that ended the stream.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws -> String? {
                while true {
                    if let line = splitter.nextLine() {
                        return line
                    }
                    if let failure = splitter.failure {
                        // The lines before the one too long have been given.
                        chunks.handle.channel.fail(failure)
                        throw failure
                    }
                    guard !splitter.isFinished else { return nil }
                    guard let chunk = try await chunks.next(isolation: actor) else {
                        splitter.finish()
                        continue
                    }
                    splitter.append(chunk)
                }
            }
        }
    }
}

/// Cuts bytes into lines ended by LF, CRLF or CR, a line at most `limit` bytes.
struct LineSplitter: Sendable {
    let limit: Int
    private var partial: [UInt8] = []
    private var ready: [String] = []
    private var readyHead = 0
    /// Whether the last byte was a CR, so that an LF starting the next chunk ends no line.
    private var afterCR = false
    private(set) var isFinished = false
    /// The line too long that stopped the input; the lines before it are still given.
    private(set) var failure: StreamError?

    init(limit: Int) {
        self.limit = limit
    }

    /// The next complete line, if one is ready.
    mutating func nextLine() -> String? {
        guard readyHead < ready.count else { return nil }
        let line = ready[readyHead]
        readyHead += 1
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
        return line
    }

    /// Adds the next bytes, making ready the lines they end; a line past the limit sets
    /// ``failure`` and ends the input there.
    mutating func append(_ chunk: Data) {
        guard failure == nil, !chunk.isEmpty else { return }
        var failed = false
        chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            var index = 0
            let count = bytes.count
            if afterCR, count > 0, bytes[0] == 0x0A {
                start = 1
                index = 1
            }
            afterCR = false
            while index < count {
                let byte = bytes[index]
                if byte == 0x0A || byte == 0x0D {
                    if partial.count + (index - start) > limit {
                        failed = true
                        return
                    }
                    partial.append(contentsOf: bytes[start..<index])
                    ready.append(String(decoding: partial, as: UTF8.self))
                    partial.removeAll(keepingCapacity: true)
                    if byte == 0x0D {
                        if index + 1 < count {
                            if bytes[index + 1] == 0x0A { index += 1 }
                        } else {
                            afterCR = true
                        }
                    }
                    index += 1
                    start = index
                } else {
                    index += 1
                }
            }
            if partial.count + (count - start) > limit {
                failed = true
                return
            }
            partial.append(contentsOf: bytes[start..<count])
        }
        if failed {
            failure = .lineTooLong(limit: limit)
            partial = []
        }
    }

    /// Ends the input: a last line without an end is made ready.
    mutating func finish() {
        guard !isFinished else { return }
        isFinished = true
        if !partial.isEmpty {
            ready.append(String(decoding: partial, as: UTF8.self))
            partial = []
        }
    }
}
