import Foundation

extension StreamedBody {
    /// The pieces the body is read from, in order.
    var segments: [BodySegment] {
        switch self {
        case .multipart(let form): form.segments()
        case .file(let url): [.file(url)]
        }
    }

    /// The form, for a multipart body.
    var form: MultipartFormData? {
        if case .multipart(let form) = self { form } else { nil }
    }

    /// A new, unread stream of this body and the reading behind it. On Apple platforms, the
    /// input of a bound pair fed from the reading on a thread of its own (``BoundBodyFeeder``),
    /// recorded in ``StreamedBodyStreams/shared``; on Linux, a ``BodyStream`` read
    /// synchronously, which carries its body. ``of(_:)`` knows the stream as this body's.
    func makeStream() -> (stream: InputStream, reading: BodyReading) {
        let reading = BodyReading(segments: segments)
        guard let bound = BoundBodyFeeder.boundStream(reading: reading) else {
            return (BodyStream(reading: reading, body: self), reading)
        }
        StreamedBodyStreams.shared.add(bound.input, of: self, keeping: bound.feeder)
        return (bound.input, reading)
    }

    /// The body `stream` streams, when the package made the stream (with ``makeStream()``).
    static func of(_ stream: InputStream?) -> StreamedBody? {
        guard let stream else { return nil }
        if let stream = stream as? BodyStream { return stream.body }
        return StreamedBodyStreams.shared.body(of: stream)
    }
}

/// The bound-pair inputs the package made for streamed bodies (on Apple platforms), each with
/// its body: how a request's body stream is known again, to be made anew for each send and
/// shown in descriptions and cURL commands. The input is a stream of Foundation's own class,
/// so the body cannot travel in it, as it does in a ``BodyStream``; the table keeps it beside.
///
/// An entry holds its stream weakly and goes once the stream is gone: the entries of gone
/// streams are swept as streams are added, so the table holds at most 64 entries or twice the
/// number of live streams.
/// It keeps the stream's ``BoundBodyFeeder`` until then: a feeder's output must outlive the
/// reader of its pair.
final class StreamedBodyStreams: @unchecked Sendable {
    /// The table of the package's bound-pair inputs.
    static let shared = StreamedBodyStreams()

    /// A stream, held weakly, with its body and feeder.
    private final class Entry {
        weak var stream: InputStream?
        let body: StreamedBody
        let feeder: BoundBodyFeeder?

        /// An entry for `stream`.
        init(stream: InputStream, body: StreamedBody, feeder: BoundBodyFeeder?) {
            self.stream = stream
            self.body = body
            self.feeder = feeder
        }
    }

    private let lock = NSLock()
    /// The entries, by the identity of their streams.
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The number of entries at which the next add removes the gone ones.
    private var sweepAt = 64

    /// Records `stream` as a stream of `body`, keeping `feeder` while the stream lives.
    func add(_ stream: InputStream, of body: StreamedBody, keeping feeder: BoundBodyFeeder?) {
        let entry = Entry(stream: stream, body: body, feeder: feeder)
        lock.withLock {
            entries[ObjectIdentifier(stream)] = entry
            guard entries.count >= sweepAt else { return }
            entries = entries.filter { $0.value.stream != nil }
            sweepAt = max(64, entries.count * 2)
        }
    }

    /// The body of `stream`, if the package made it.
    func body(of stream: InputStream) -> StreamedBody? {
        lock.withLock {
            guard let entry = entries[ObjectIdentifier(stream)], entry.stream === stream else { return nil }
            return entry.body
        }
    }

    /// How many entries the table holds, gone streams included until the next sweep.
    var count: Int {
        lock.withLock { entries.count }
    }
}
