import Foundation
import Testing

@testable import FunctionalNetworking

/// The feeder of a bound pair (how bodies stream on Apple platforms), driven here by a stand-in
/// for the pair's output, since Linux has no bound pairs: the whole body written in order, and
/// its thread, its file and its output left as they must be whichever way it ends. Serialized:
/// each test counts the feeder threads of the process.
@Suite("Bound body feeder", .serialized)
struct BoundBodyFeederTests {
    /// The output of a bound pair as the feeder sees it: it holds up to ``capacity`` bytes until
    /// ``take()`` empties it, and tells its delegate when it has space (after opening, after a
    /// write that left space, after a take) from the run loop it is scheduled on. It adds no
    /// source to the run loop, so it also checks that the feeder neither spins nor stalls then.
    final class PairOutput: OutputStream {
        private let lock = NSLock()
        private var held = Data()
        private var taken = Data()
        private var status = Stream.Status.notOpen
        private var runLoop: RunLoop?
        private weak var assignedDelegate: (any StreamDelegate)?
        private lazy var relay = EventRelay(self)
        private var limit = Int.max
        private var closeCount = 0

        /// How many bytes it holds before it has no space.
        var capacity: Int {
            get { lock.withLock { limit } }
            set { lock.withLock { limit = newValue } }
        }

        /// How many times it was closed.
        var closings: Int { lock.withLock { closeCount } }

        override var delegate: (any StreamDelegate)? {
            get { assignedDelegate }
            set { assignedDelegate = newValue }
        }

        override var streamStatus: Stream.Status { lock.withLock { status } }

        override var streamError: (any Error)? { nil }

        override func open() {
            lock.withLock { status = .open }
            signal(.hasSpaceAvailable)
        }

        override func close() {
            lock.withLock {
                status = .closed
                closeCount += 1
            }
        }

        override var hasSpaceAvailable: Bool { lock.withLock { held.count < limit } }

        override func write(_ buffer: UnsafePointer<UInt8>, maxLength length: Int) -> Int {
            let (count, space) = lock.withLock { () -> (Int, Bool) in
                let count = min(length, limit - held.count)
                held.append(buffer, count: count)
                return (count, held.count < limit)
            }
            if space { signal(.hasSpaceAvailable) }
            return count
        }

        override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {
            lock.withLock { runLoop = aRunLoop }
        }

        override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {
            lock.withLock { runLoop = nil }
        }

        /// Takes the bytes it holds, as the reader of the pair does, and says there is space.
        func take() {
            lock.withLock {
                taken.append(held)
                held = Data()
            }
            signal(.hasSpaceAvailable)
        }

        /// Everything written so far.
        var written: Data { lock.withLock { taken + held } }

        /// How many bytes it holds.
        var heldCount: Int { lock.withLock { held.count } }

        /// Tells its delegate of `event`, from its run loop: a block the run loop performs on its
        /// next pass (a real stream's source would wake it; the feeder looks at least every
        /// watch interval). Not a timer: corelibs' block timers leak.
        func signal(_ event: Stream.Event) {
            let (scheduled, carrier) = lock.withLock { () -> (RunLoop?, EventRelay) in (runLoop, relay) }
            scheduled?.perform(inModes: [.default]) { carrier.deliver(event) }
        }

        fileprivate func deliver(_ event: Stream.Event) {
            guard lock.withLock({ runLoop != nil }), let feeder = delegate as? BoundBodyFeeder else { return }
            feeder.stream(self, handle: event)
        }
    }

    /// Carries events into timer blocks without keeping the output alive.
    final class EventRelay: @unchecked Sendable {
        private let lock = NSLock()
        private weak var output: PairOutput?
        init(_ output: PairOutput) { self.output = output }
        func deliver(_ event: Stream.Event) { lock.withLock { output }?.deliver(event) }
    }

    /// The feeder threads running now; fails the test where there is no `/proc`.
    static func feederThreads() throws -> [String] {
        try #require(threads(named: BoundBodyFeeder.threadName))
    }

    @Test func theWholeBodyIsWrittenInOrderThenTheOutputClosedAndTheThreadEnds() async throws {
        #expect(try Self.feederThreads().isEmpty)
        let file = try URLRequestBodyTests.temporaryFile(count: 1_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let reading = BodyReading(segments: [.bytes(Data("head".utf8)), .file(file), .bytes(Data("tail".utf8))])
        let output = PairOutput(toMemory: ())
        let reader = InputStream(data: Data())
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: reader)
        feeder.start()
        try await waitUntil("the feeder's thread ends") { !feeder.isRunning }
        #expect(output.written == Data("head".utf8) + (try Data(contentsOf: file)) + Data("tail".utf8))
        #expect(output.closings == 1)
        #expect(reading.isOver && reading.failure == nil)
        #expect(openDescriptors(of: file) ?? 0 == 0)
        try await waitUntil("no feeder thread is left") { (try? Self.feederThreads().isEmpty) ?? false }
        withExtendedLifetime(reader) {}
    }

    @Test func writesWaitForSpaceAndResumeWhenTheReaderTakesTheBytes() async throws {
        let body = DownloadTests.pattern(300_000)
        let reading = BodyReading(segments: [.bytes(body)])
        let output = PairOutput(toMemory: ())
        output.capacity = 50_000
        let reader = InputStream(data: Data())
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: reader)
        feeder.start()
        while feeder.isRunning {
            try await waitUntil("the output is full or closed") { output.heldCount == 50_000 || !feeder.isRunning }
            output.take()
        }
        #expect(output.written == body && output.closings == 1)
        withExtendedLifetime(reader) {}
    }

    @Test func aReaderThatStopsReadingNeitherBlocksNorSpinsAndItsGoingEndsTheFeeder() async throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 1_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let reading = BodyReading(segments: [.file(file)])
        let output = PairOutput(toMemory: ())
        output.capacity = 100_000
        var reader: InputStream? = InputStream(data: Data())
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: try #require(reader))
        feeder.start()
        try await waitUntil("the output is full") { output.heldCount == 100_000 }
        #expect(openDescriptors(of: file) ?? 1 == 1)
        // Stuck on a full output, the thread sleeps: over a second it uses (almost) no processor.
        let thread = try #require(try Self.feederThreads().first, "threads: \(threadNames())")
        let before = try #require(processorTicks(ofThread: thread))
        try await Task.sleep(for: .seconds(1))
        let after = try #require(processorTicks(ofThread: thread))
        #expect(after - before <= 5, "the parked feeder used \(after - before) ticks in a second")
        #expect(feeder.isRunning)

        reader = nil
        try await waitUntil(within: .seconds(30), "the feeder's thread ends") { !feeder.isRunning }
        #expect(openDescriptors(of: file) ?? 0 == 0)
        #expect(output.closings == 0, "closing would end the body early for a reader still reading")
        #expect(reading.isOver)
        try await waitUntil("no feeder thread is left") { (try? Self.feederThreads().isEmpty) ?? false }
    }

    @Test func aReaderClosedByItsConsumerEndsTheFeeder() async throws {
        let reading = BodyReading(segments: [.bytes(DownloadTests.pattern(200_000))])
        let output = PairOutput(toMemory: ())
        output.capacity = 10_000
        let reader = InputStream(data: Data())
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: reader)
        feeder.start()
        try await waitUntil("the output is full") { output.heldCount == 10_000 }
        reader.open()
        reader.close()
        try await waitUntil(within: .seconds(30), "the feeder's thread ends") { !feeder.isRunning }
        #expect(output.closings == 0 && reading.isOver)
    }

    @Test func aFileThatCannotBeReadLeavesTheOutputOpenAndTheFailureForTheSender() async throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 10)
        let reading = BodyReading(segments: [.bytes(Data("x".utf8)), .file(file)])
        try FileManager.default.removeItem(at: file)
        let output = PairOutput(toMemory: ())
        let reader = InputStream(data: Data())
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: reader)
        feeder.start()
        try await waitUntil("the feeder's thread ends") { !feeder.isRunning }
        #expect(reading.failure == .unreadableFile(file.path, reason: "it does not exist or cannot be read"))
        #expect(output.written == Data("x".utf8))
        #expect(output.closings == 0, "closing would send the body cut short as if whole")
        withExtendedLifetime(reader) {}
    }

    @Test func theSenderEndingTheReadingEndsTheFeederWithoutEndingTheBody() async throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 1_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let reading = BodyReading(segments: [.file(file)])
        let output = PairOutput(toMemory: ())
        output.capacity = 100_000
        let reader = InputStream(data: Data())
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: reader)
        feeder.start()
        try await waitUntil("the output is full") { output.heldCount == 100_000 }
        reading.end()
        try await waitUntil(within: .seconds(30), "the feeder's thread ends") { !feeder.isRunning }
        #expect(output.closings == 0)
        #expect(openDescriptors(of: file) ?? 0 == 0)
        withExtendedLifetime(reader) {}
    }

    @Test func anErrorOnTheOutputEndsTheFeederAndTheReading() async throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 1_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let reading = BodyReading(segments: [.file(file)])
        let output = PairOutput(toMemory: ())
        output.capacity = 100_000
        let reader = InputStream(data: Data())
        let feeder = BoundBodyFeeder(reading: reading, output: output, reader: reader)
        feeder.start()
        try await waitUntil("the output is full") { output.heldCount == 100_000 }
        output.signal(.errorOccurred)
        try await waitUntil(within: .seconds(30), "the feeder's thread ends") { !feeder.isRunning }
        #expect(reading.isOver && openDescriptors(of: file) ?? 0 == 0)
        withExtendedLifetime(reader) {}
    }

    @Test func linuxHasNoBoundPairSoBodiesStreamSynchronouslyThere() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 10)
        defer { try? FileManager.default.removeItem(at: file) }
        let (stream, _) = StreamedBody.file(file).makeStream()
        #if canImport(FoundationNetworking)
        #expect(BoundBodyFeeder.boundStream(reading: BodyReading(segments: [])) == nil)
        #expect(stream is BodyStream)
        #else
        #expect(!(stream is BodyStream))
        #endif
    }
}
