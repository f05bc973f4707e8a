/// An incremental reader of a Server-Sent Events stream (`text/event-stream`): fed the body's
/// bytes in chunks of any size, it returns each event as soon as the blank line that ends it
/// has arrived.
///
/// It follows the WHATWG HTML standard's event-stream interpretation: the bytes are UTF-8
/// (invalid sequences become U+FFFD), one leading byte order mark is dropped, lines end with
/// CR, LF or CRLF (also when the CR ends one chunk and the LF starts the next), lines starting
/// with `:` are comments, a field's value loses one leading space, and a line without a colon
/// is a field with an empty value. `event` sets the type, `data` adds a line to the data,
/// `id` sets the last event ID (unless it contains NUL; it persists from event to event),
/// `retry` sets the reconnection time (only when all ASCII digits), and other fields are
/// ignored. A blank line dispatches the event, unless no `data` field came since the last one.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// var events = try parser.parse(Data("event: greeting\ndata: hello\nid: 1\n".utf8))
/// events += try parser.parse(Data("\ndata: world\n\n".utf8))
/// // events[0]: event "greeting", id "1", data "hello"
/// // events[1]: event "message", id "1", data "world"
/// ```
///
/// One line, and the data of one event, may hold at most ``maximumEventSize`` bytes; past that
/// ``parse(_:)`` throws ``ServerSentEventError`` (and keeps throwing it), so a server that
/// never ends a line cannot make the parser hold more than about that much memory.
///
/// - Note: A value type: copy it to fork the state. Use one parser per stream, from one task
///   at a time.
public struct ServerSentEventParser: Sendable {
    /// The default ``maximumEventSize``: 1 MiB.
    public static let defaultMaximumEventSize = 1 << 20

    /// The most bytes one line, or the data of one event, may hold.
    public let maximumEventSize: Int
    /// The last event ID: set by an `id:` field once the blank line that ends its block has
    /// arrived (an event cut short by the stream's end does not set it), and kept across events
    /// and across ``finish()``. Empty when there is none; send it as `Last-Event-ID` when
    /// reconnecting.
    public private(set) var lastEventID = ""
    /// The last event ID buffer: the latest `id:` value, which the next blank line makes the
    /// ``lastEventID``.
    private var idBuffer = ""
    /// The reconnection time set by the stream's latest valid `retry:` field, or `nil`.
    ///
    /// A `retry:` field counts even in a block that dispatches no event. It is kept across
    /// ``finish()``.
    public private(set) var reconnectionTime: Duration?

    /// The bytes of the line being read, without its end.
    private var line: [UInt8] = []
    /// The data buffer: each `data:` value followed by a line feed.
    private var data: [UInt8] = []
    /// The event type buffer.
    private var eventType: [UInt8] = []
    /// The `retry:` value seen since the last dispatch.
    private var retry: Duration?
    /// Whether the previous byte was a CR, so that a following LF ends no further line.
    private var followsCarriageReturn = false
    /// The first bytes of the stream while they may still be a byte order mark.
    private var leadingBytes: [UInt8] = []
    /// Whether the leading byte order mark has been dealt with.
    private var isPastByteOrderMark = false
    /// The error that stopped the stream; every later call throws it again.
    private var failure: ServerSentEventError?

    /// Creates a parser at the start of a stream.
    ///
    /// - Parameter maximumEventSize: The most bytes one line, or the data of one event, may
    ///   hold (at least 1). Defaults to ``defaultMaximumEventSize``.
    public init(maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize) {
        self.maximumEventSize = max(1, maximumEventSize)
    }

    /// Reads the next bytes of the stream and returns the events they complete, in order.
    ///
    /// - Parameter bytes: The next bytes, of any size, cut anywhere (even inside a UTF-8
    ///   sequence or between the CR and LF of a line end).
    /// - Returns: The events dispatched by blank lines within `bytes`; often none.
    /// - Throws: ``ServerSentEventError`` when a line or an event exceeds
    ///   ``maximumEventSize``; once thrown, every later call throws it again until ``finish()``.
    public mutating func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(ServerSentEventError) -> [ServerSentEvent] {
        let (events, failure) = parseKeepingEvents(bytes)
        if let failure { throw failure }
        return events
    }

    /// The events `bytes` complete, and the error that stopped the stream, if one did: the
    /// events dispatched before a line or an event too long are kept.
    mutating func parseKeepingEvents<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ([ServerSentEvent], ServerSentEventError?) {
        if let failure { return ([], failure) }
        var events: [ServerSentEvent] = []
        let outcome = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(ServerSentEventError) in try read(buffer, into: &events) }
        }
        do {
            if let outcome {
                try outcome.get()
            } else {
                let copy = Array(bytes)
                try copy.withUnsafeBufferPointer { buffer throws(ServerSentEventError) in try read(buffer, into: &events) }
            }
        } catch {
            failure = error
            line = []
            data = []
            return (events, error)
        }
        return (events, nil)
    }

    /// Ends the stream: an event or a line left incomplete is dropped, as the standard says,
    /// and the parser is ready for the next connection's stream (whose byte order mark it drops
    /// again). ``lastEventID`` and ``reconnectionTime`` are kept.
    public mutating func finish() {
        self = ServerSentEventParser(maximumEventSize: maximumEventSize)
            .carrying(lastEventID: lastEventID, reconnectionTime: reconnectionTime)
    }

    // MARK: - Reading

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")

    private func carrying(lastEventID: String, reconnectionTime: Duration?) -> Self {
        var copy = self
        copy.lastEventID = lastEventID
        copy.idBuffer = lastEventID
        copy.reconnectionTime = reconnectionTime
        return copy
    }

    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, into events: inout [ServerSentEvent]) throws(ServerSentEventError) {
        var start = 0
        if !isPastByteOrderMark {
            let mark = Self.byteOrderMark
            while leadingBytes.count < mark.count, start < bytes.count, leadingBytes.last == nil || mark.starts(with: leadingBytes) {
                leadingBytes.append(bytes[start])
                start += 1
            }
            if leadingBytes == mark {
                isPastByteOrderMark = true
            } else if mark.starts(with: leadingBytes) {
                return  // Still a possible mark: wait for its next byte.
            } else {
                isPastByteOrderMark = true
                let leading = leadingBytes
                try leading.withUnsafeBufferPointer { buffer throws(ServerSentEventError) in
                    try readLines(buffer, from: 0, into: &events)
                }
            }
            leadingBytes = []
        }
        try readLines(bytes, from: start, into: &events)
    }

    private mutating func readLines(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into events: inout [ServerSentEvent]
    ) throws(ServerSentEventError) {
        var index = start
        while index < bytes.count {
            if followsCarriageReturn {
                followsCarriageReturn = false
                if bytes[index] == Self.lineFeed {
                    index += 1
                    continue
                }
            }
            var end = index
            while end < bytes.count, bytes[end] != Self.carriageReturn, bytes[end] != Self.lineFeed { end += 1 }
            guard line.count + (end - index) <= maximumEventSize else { throw .lineTooLong(limit: maximumEventSize) }
            line.append(contentsOf: bytes[index..<end])
            guard end < bytes.count else { return }
            followsCarriageReturn = bytes[end] == Self.carriageReturn
            if let event = try processLine() { events.append(event) }
            line.removeAll(keepingCapacity: line.capacity <= 4096)
            index = end + 1
        }
    }

    /// Interprets the complete line in `line`, returning the event a blank line dispatches.
    private mutating func processLine() throws(ServerSentEventError) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == Self.colon { return nil }  // A comment.
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: Self.colon) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = Array(value)
        case "data":
            guard data.count + value.count + 1 <= maximumEventSize + 1 else { throw .eventTooLarge(limit: maximumEventSize) }
            data.append(contentsOf: value)
            data.append(Self.lineFeed)
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if let milliseconds = Self.digits(value) {
                retry = .milliseconds(milliseconds)
                reconnectionTime = retry
            }
        default:
            break
        }
        return nil
    }

    /// The value of a non-empty run of ASCII digits (saturating at `Int64.max`), or `nil`.
    private static func digits(_ value: ArraySlice<UInt8>) -> Int64? {
        guard !value.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in value {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (tens, overflow) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = tens.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            result = overflow || overflowAgain ? .max : sum
        }
        return result
    }

    /// Dispatches the buffered event (if it has data) and empties the buffers.
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: data.capacity <= 4096)
            eventType = []
            retry = nil
        }
        lastEventID = idBuffer
        guard !data.isEmpty else { return nil }
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self),
            data: String(decoding: data.dropLast(), as: UTF8.self),
            id: lastEventID.isEmpty ? nil : lastEventID,
            retry: retry
        )
    }
}
