import Foundation

/// A body stream over ``BodySegment``s that reads files a chunk at a time and can be made anew
/// (``fresh()``) each time the request is sent, since a stream is read only once.
///
/// URLSession reads it from one thread at a time, as it does any body stream.
final class ReplayableBodyStream: InputStream {
    let segments: [BodySegment]
    /// The form the segments were made from, for descriptions and cURL output.
    let form: MultipartFormData?
    private var index = 0
    private var offset = 0
    private var file: FileHandle?
    private var status = Stream.Status.notOpen
    private var failure: (any Error)?

    init(segments: [BodySegment], form: MultipartFormData? = nil) {
        self.segments = segments
        self.form = form
        super.init(data: Data())
    }

    /// The same body, unread.
    func fresh() -> ReplayableBodyStream {
        ReplayableBodyStream(segments: segments, form: form)
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        try? file?.close()
        file = nil
        status = .closed
    }

    override var streamStatus: Stream.Status { status }

    override var streamError: (any Error)? { failure }

    override var hasBytesAvailable: Bool {
        status == .open || status == .reading
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        guard status == .open || status == .reading, maxLength > 0 else { return status == .atEnd ? 0 : -1 }
        while index < segments.count {
            switch segments[index] {
            case .bytes(let data):
                let count = min(maxLength, data.count - offset)
                if count > 0 {
                    data.withUnsafeBytes { raw in
                        let start = raw.baseAddress.map { $0 + offset }
                        if let start { buffer.update(from: start.assumingMemoryBound(to: UInt8.self), count: count) }
                    }
                    offset += count
                    return count
                }
            case .file(let url):
                do {
                    if file == nil { file = try FileHandle(forReadingFrom: url) }
                    let chunk = try file?.read(upToCount: maxLength) ?? Data()
                    if !chunk.isEmpty {
                        chunk.copyBytes(to: buffer, count: chunk.count)
                        return chunk.count
                    }
                } catch {
                    failure = error
                    status = .error
                    return -1
                }
                try? file?.close()
                file = nil
            }
            index += 1
            offset = 0
        }
        status = .atEnd
        return 0
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }
}
