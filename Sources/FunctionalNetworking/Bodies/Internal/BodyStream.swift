import Foundation

/// A body stream read synchronously, a chunk at a time, from a ``BodyReading``: the stream
/// URLSession reads on Linux, and a complete `InputStream` subclass wherever it is read.
///
/// Why a subclass on Linux: swift-corelibs-foundation's URLSession reads a body stream from
/// libcurl's read callback, synchronously (`_BodyStreamSource` in `BodySource.swift`: it opens
/// the stream, then reads while `hasBytesAvailable` is true and takes `false` for the end of
/// the body). It never schedules the stream or sets its delegate, and corelibs has no bound
/// stream pairs (`Stream.getBoundStreams` is compiled out there). A stream that always has its
/// next bytes at hand, like this one, is the only kind it reads whole. On Apple platforms,
/// where CFNetwork reads a body stream through run-loop events and takes over its delegate
/// (NSURLRequest.h, `HTTPBodyStream`), the package hands URLSession the input of a bound pair
/// instead (see ``BoundBodyFeeder``); this stream is only its fallback there.
///
/// NSStream.h says a subclass of `NSInputStream` must implement, besides reading, the
/// `NSStream` methods, and "by default, a stream is its own delegate, … `[someStream
/// setDelegate:nil]` must restore this behavior. As usual, delegates are not retained." So:
/// ``delegate`` is the stream itself until set, holds its delegate weakly, and goes back to
/// the stream when set to `nil`; the stream has no properties (``property(forKey:)`` gives
/// `nil`, ``setProperty(_:forKey:)`` `false`); and a stream scheduled on run loops tells its
/// delegate, from each of them, that it opened, that it has bytes (after opening and after
/// each read that did not reach the end), that it reached the end, or that it failed, so a
/// run-loop consumer reads it as it reads a file stream.
///
/// Used as streams are: from one thread at a time (when scheduled, the one whose run loop it is
/// scheduled on). The package's end of a send may come from another thread while URLSession
/// still reads: it goes to the reading, whose lock makes it safe.
final class BodyStream: InputStream, StreamDelegate {
    /// The bytes, and the state shared with the sender.
    let reading: BodyReading
    /// The body the stream was made from, when the package made it from one: how a request's
    /// stream is known again, to be made anew for each send and shown in descriptions.
    let body: StreamedBody?
    private var status = Stream.Status.notOpen
    /// Why the stream failed: the reading's ``BodyError``, or `CancellationError` when the
    /// sender ended the reading first.
    private var failure: (any Error)?
    /// The delegate set, if any; held weakly, as NSStream.h says.
    private weak var assignedDelegate: (any StreamDelegate)?
    /// The run loops and modes the stream is scheduled in.
    private var schedules: [(runLoop: RunLoop, mode: RunLoop.Mode)] = []
    /// Carries the events into the blocks the run loops perform.
    private lazy var relay = EventRelay(self)

    /// A stream of the bytes `reading` gives, made from `body`; not yet open.
    init(reading: BodyReading, body: StreamedBody? = nil) {
        self.reading = reading
        self.body = body
        super.init(data: Data())
    }

    /// Opens the stream; scheduled, it tells its delegate that it opened and has bytes.
    override func open() {
        guard status == .notOpen else { return }
        status = .open
        post(.openCompleted)
        post(.hasBytesAvailable)
    }

    /// Closes the stream and ends its reading, which closes the file being read.
    override func close() {
        reading.end()
        status = .closed
    }

    /// The stream itself unless another delegate is set; held weakly.
    override var delegate: (any StreamDelegate)? {
        get { assignedDelegate ?? self }
        set { assignedDelegate = newValue }
    }

    /// Not open, open, at its end, closed, or failed.
    override var streamStatus: Stream.Status { status }

    /// Why the stream failed, once it has.
    override var streamError: (any Error)? { failure }

    /// True while the stream is open and not at its end: the next read gives bytes, the end,
    /// or the failure.
    override var hasBytesAvailable: Bool {
        status == .open
    }

    /// Copies up to `maxLength` next bytes of the body into `buffer`: how many, 0 at the end,
    /// or -1 when the stream failed (its ``streamError`` says why) or is not open. A failed
    /// read never gives 0, which would end the body cut short as if whole.
    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        switch reading.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max(0, maxLength))) {
        case .bytes(let count):
            post(.hasBytesAvailable)
            return count
        case .end:
            status = .atEnd
            post(.endEncountered)
            return 0
        case .failed(let error):
            fail(with: error)
            return -1
        case .ended:
            fail(with: CancellationError())
            return -1
        }
    }

    /// The stream has no buffer of its own to lend: always `false`, as NSStream.h allows.
    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    #if canImport(FoundationNetworking)
    /// No properties: always `nil`.
    override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

    /// No properties can be set: always `false`.
    override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }
    #else
    /// No properties: always `nil`.
    override func property(forKey key: Stream.PropertyKey) -> Any? { nil }

    /// No properties can be set: always `false`.
    override func setProperty(_ property: Any?, forKey key: Stream.PropertyKey) -> Bool { false }
    #endif

    /// Delivers the stream's events to its delegate from `runLoop` in `mode` as well.
    override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        guard !schedules.contains(where: { $0.runLoop === runLoop && $0.mode == mode }) else { return }
        schedules.append((runLoop, mode))
    }

    /// Stops delivering events from `runLoop` in `mode`.
    override func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        schedules.removeAll { $0.runLoop === runLoop && $0.mode == mode }
    }

    /// The stream as its own delegate: nothing to do.
    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {}

    /// Records `error` as the stream's failure and tells the delegate.
    private func fail(with error: any Error) {
        status = .error
        failure = error
        post(.errorOccurred)
    }

    /// Has `event` delivered to the delegate from every run loop the stream is scheduled on.
    private func post(_ event: Stream.Event) {
        guard !schedules.isEmpty else { return }
        let relay = relay
        for (runLoop, mode) in schedules {
            runLoop.perform(inModes: [mode]) { relay.deliver(event) }
        }
    }

    /// Tells the delegate of `event`, unless the stream was closed since it happened.
    fileprivate func deliver(_ event: Stream.Event) {
        guard status != .closed, let delegate else { return }
        #if canImport(FoundationNetworking)
        delegate.stream(self, handle: event)
        #else
        delegate.stream?(self, handle: event)
        #endif
    }
}

/// Carries a stream's events into the blocks its run loops perform, without keeping the
/// stream alive: a block that runs after the stream is gone does nothing.
private final class EventRelay: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stream: BodyStream?

    /// A relay to `stream`.
    init(_ stream: BodyStream) {
        self.stream = stream
    }

    /// Hands `event` to the stream, on the thread of the run loop performing the block.
    func deliver(_ event: Stream.Event) {
        let stream = lock.withLock { self.stream }
        stream?.deliver(event)
    }
}
