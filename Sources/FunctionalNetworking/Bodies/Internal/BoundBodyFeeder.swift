import Foundation

/// Writes a body into the output of a bound stream pair, on a thread of its own, for the
/// pair's input to be the request's body stream: how the package streams a body on Apple
/// platforms.
///
/// Why a bound pair there: CFNetwork reads a body stream through CFStream, scheduled on its own
/// run loop, and "the request will take over the stream's delegate" (NSURLRequest.h,
/// `HTTPBodyStream`, which also asks for an unopened stream). A subclass of `NSInputStream`
/// receives those calls through CFStream's toll-free bridging: `-propertyForKey:` (leaving it
/// out is the "only defined for abstract class" crash other projects met) and, as those
/// projects found, undocumented bridged methods besides (AFNetworking implements
/// `_scheduleInCFRunLoop:forMode:` and `_setCFClientFlags:callback:context:`; without them,
/// uploads stall), which no header documents. The pair that
/// `+[NSStream getBoundStreamsWithBufferSize:inputStream:outputStream:]` makes (NSStream.h,
/// `NSStreamBoundPairCreationExtensions`) is a stream of Foundation's own, which CFNetwork reads
/// as it reads any; and the feeding side uses only the documented `NSOutputStream` contract:
/// scheduled on a run loop, a write after each `hasSpaceAvailable` event, so no write ever
/// blocks.
///
/// The feeder owns its thread, which runs until one of these, and then ends:
/// - the body is written whole: the output is closed, which is the end of the body for the
///   reader;
/// - the reader has gone: the input stream is released or closed (a cancelled task), or the
///   output reports an error or its end;
/// - the reading is over early: a file failed (the request fails with its ``BodyError``) or
///   the sender ended the reading after the send.
///
/// In the last two cases the output stays open: closing it would tell a reader still reading
/// that the body ended there, and a shortened body would be sent as if whole. It stays open
/// until the feeder is released, which the package does once the input stream is gone. The
/// thread checks for a gone reader and an ended reading on every event and at least every
/// ``watchInterval`` seconds, and sleeps in its run loop in between: it never spins. The open
/// file (at most one) is closed as the reading ends.
final class BoundBodyFeeder: NSObject, StreamDelegate, @unchecked Sendable {
    /// The size of the chunks read from the body, and of the pair's buffer.
    static let chunkSize = 65_536
    /// How often, at most, the thread looks for a gone reader or an ended reading while no
    /// event comes.
    static let watchInterval: TimeInterval = 0.25
    /// The name of a feeder's thread.
    static let threadName = "FN body feeder"

    /// The body being written.
    private let reading: BodyReading
    // The output, the reader, the buffer and what is pending in it are touched on the feeder's
    // thread only, once it has started.
    private let output: OutputStream
    private weak var reader: InputStream?
    /// The chunk being written, while the thread runs.
    private var buffer: UnsafeMutableRawBufferPointer?
    /// The bytes of `buffer` read from the body and not yet written.
    private var pending = 0..<0
    // The lock guards these two, read from any thread.
    private let lock = NSLock()
    private var finished = false
    private var threadRunning = false

    /// A feeder of `output` from `reading`, for `reader`, the input of the pair `output`
    /// belongs to. ``start()`` starts it.
    init(reading: BodyReading, output: OutputStream, reader: InputStream) {
        self.reading = reading
        self.output = output
        self.reader = reader
    }

    /// A bound pair whose input gives the bytes of `reading` as they are read: the input,
    /// and its feeder, started. `nil` where Foundation has no bound pairs (Linux), or made none.
    static func boundStream(reading: BodyReading) -> (input: InputStream, feeder: BoundBodyFeeder)? {
        #if canImport(FoundationNetworking)
        return nil
        #else
        var input: InputStream?
        var output: OutputStream?
        Stream.getBoundStreams(withBufferSize: chunkSize, inputStream: &input, outputStream: &output)
        guard let input, let output else { return nil }
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: input)
        feeder.start()
        return (input, feeder)
        #endif
    }

    /// Whether the feeder's thread is still running.
    var isRunning: Bool {
        lock.withLock { threadRunning }
    }

    /// Starts the feeder's thread.
    func start() {
        lock.withLock { threadRunning = true }
        // On swift-corelibs-foundation a thread's name is lost when it is set before `start()`
        // has recorded the new thread, which the new thread can outrun: it waits for that.
        let started = DispatchSemaphore(value: 0)
        Thread { [self] in
            started.wait()
            run()
        }.start()
        started.signal()
    }

    /// The thread: the output scheduled on its run loop, which it runs until the feeder finishes.
    private func run() {
        // Named from inside: Linux names only the current thread, and in 15 bytes at most.
        Thread.current.name = Self.threadName
        let runLoop = RunLoop.current
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        self.buffer = buffer
        output.delegate = self
        output.schedule(in: runLoop, forMode: .default)
        output.open()
        while !isFinished {
            // The scheduled output is the run loop's source: the run sleeps until an event or
            // the watch interval. Were the mode empty, the run would return at once: sleeping
            // then keeps the loop from spinning.
            if !runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: Self.watchInterval)) {
                Thread.sleep(forTimeInterval: Self.watchInterval)
            }
            watch()
        }
        output.remove(from: runLoop, forMode: .default)
        output.delegate = nil
        self.buffer = nil
        buffer.deallocate()
        lock.withLock { threadRunning = false }
    }

    /// Whether the feeder has finished (its thread may still be winding down).
    private var isFinished: Bool {
        lock.withLock { finished }
    }

    /// Called by the output, on the feeder's thread.
    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
        guard !isFinished else { return }
        if eventCode.contains(.errorOccurred) || eventCode.contains(.endEncountered) {
            finish(closingOutput: false)
        } else if eventCode.contains(.hasSpaceAvailable) {
            writeNext()
        }
    }

    /// Writes the next bytes of the body, reading a chunk when none is pending: one write,
    /// which the `hasSpaceAvailable` event says will not block.
    private func writeNext() {
        guard let buffer, let base = buffer.baseAddress else { return }
        if pending.isEmpty {
            switch reading.read(into: buffer) {
            case .bytes(let count):
                pending = 0..<count
                if count == 0 { return }
            case .end:
                finish(closingOutput: true)
                return
            case .failed, .ended:
                finish(closingOutput: false)
                return
            }
        }
        let written = output.write(base.advanced(by: pending.lowerBound).assumingMemoryBound(to: UInt8.self), maxLength: pending.count)
        if written > 0 {
            pending = pending.lowerBound + written..<pending.upperBound
        } else {
            finish(closingOutput: false)
        }
    }

    /// Finishes when the reader has gone or the reading is over.
    private func watch() {
        guard !isFinished else { return }
        let gone = reader.map { [.closed, .error].contains($0.streamStatus) } ?? true
        if gone || reading.isOver {
            finish(closingOutput: false)
        }
    }

    /// Ends the reading (closing its file) and the thread's loop; closes the output only when
    /// the body was written whole.
    private func finish(closingOutput: Bool) {
        lock.withLock { finished = true }
        reading.end()
        if closingOutput {
            output.close()
        }
    }
}
