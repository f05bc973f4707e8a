import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `multipart/form-data` body (RFC 7578): text fields and files, as an HTML form sends them.
///
/// Files are read from disk while the body is sent, a chunk at a time, so a file of any size
/// is never held in memory; the body is read again from the start when a retry or a 307/308
/// redirect sends the request again.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", named: "name")
/// form.appendFile(at: photoURL, named: "photo", contentType: "image/jpeg")
/// let upload = Endpoint(method: .post, baseURL: shop, path: "/photos").with(body: form)
/// let reply = try await send(upload).value
/// ```
///
/// Field names and file names keep any character: `"`, carriage return and line feed are
/// written `%22`, `%0D` and `%0A`, as browsers do, and everything else as UTF-8.
public struct MultipartFormData: Sendable, Hashable {
    /// One field of the form.
    public struct Part: Sendable, Hashable {
        /// Where a part's bytes come from.
        public enum Content: Sendable, Hashable {
            /// Bytes in memory.
            case data(Data)
            /// The contents of a file, read as the body is sent.
            case file(URL)
        }

        /// The field's name.
        public var name: String
        /// The file name the server is told, for a file.
        public var filename: String?
        /// The part's media type; none for a text field.
        public var contentType: String?
        /// The part's bytes.
        public var content: Content
    }

    /// The text that separates the parts: 128 random bits, so it cannot occur in them by
    /// chance.
    public let boundary: String
    /// The parts, in the order they are sent.
    public private(set) var parts: [Part] = []

    /// An empty form with a random boundary.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
        boundary = "FunctionalNetworking-" + random.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    }

    /// The `Content-Type` header value: `multipart/form-data; boundary=…`.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// Adds a text field.
    public mutating func append(_ value: String, named name: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Adds bytes from memory, as a file when `filename` is given.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The field's name.
    ///   - filename: The file name the server is told.
    ///   - contentType: The media type; `application/octet-stream` for a file when `nil`.
    public mutating func append(_ data: Data, named name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? (filename == nil ? nil : "application/octet-stream")
        parts.append(Part(name: name, filename: filename, contentType: type, content: .data(data)))
    }

    /// Adds a file, read from disk while the body is sent.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - name: The field's name.
    ///   - filename: The file name the server is told; the URL's last path component when `nil`.
    ///   - contentType: The media type; `application/octet-stream` when `nil`.
    public mutating func appendFile(at url: URL, named name: String, filename: String? = nil, contentType: String? = nil) {
        parts.append(
            Part(
                name: name, filename: filename ?? url.lastPathComponent,
                contentType: contentType ?? "application/octet-stream", content: .file(url)))
    }

    /// The whole body in memory. Reads every file part: for large files, set the form
    /// with ``Endpoint/with(body:)-(MultipartFormData)`` instead, which streams them.
    ///
    /// - Throws: ``BodyError/unreadableFile(_:reason:)`` when a file cannot be read.
    public func encoded() throws(BodyError) -> Data {
        let segments = segments()
        try BodySegment.check(segments)
        var data = Data()
        for segment in segments {
            switch segment {
            case .bytes(let bytes):
                data.append(bytes)
            case .file(let url):
                do {
                    data.append(try Data(contentsOf: url))
                } catch {
                    throw .unreadableFile(url.path, reason: error.localizedDescription)
                }
            }
        }
        return data
    }

    /// The body as the pieces a stream reads in turn.
    func segments() -> [BodySegment] {
        var segments: [BodySegment] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(part.name))\""
            if let filename = part.filename {
                head += "; filename=\"\(Self.escaped(filename))\""
            }
            if let contentType = part.contentType {
                head += "\r\nContent-Type: \(Self.headerSafe(contentType))"
            }
            head += "\r\n\r\n"
            segments.append(.bytes(Data(head.utf8)))
            switch part.content {
            case .data(let data):
                segments.append(.bytes(data))
            case .file(let url):
                segments.append(.file(url))
            }
            segments.append(.bytes(Data("\r\n".utf8)))
        }
        segments.append(.bytes(Data("--\(boundary)--\r\n".utf8)))
        return segments
    }

    /// A name in a `Content-Disposition` parameter, as the HTML standard writes it.
    static func escaped(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A header value with no line break in it.
    static func headerSafe(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }
}
