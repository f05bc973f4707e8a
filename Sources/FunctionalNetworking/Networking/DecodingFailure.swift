import Foundation

/// A body that did not decode into the type asked for, naming the type and where in the
/// document decoding stopped.
///
/// ```
/// Could not decode Product: the key "name" is missing at items[2].
/// ```
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
    /// The type that was being decoded, such as `"Product"`.
    public let typeName: String
    /// Where decoding stopped, such as `"items[2].name"`; empty at the top level.
    public let codingPath: String
    /// What went wrong there, in words.
    public let reason: String
    /// The first bytes of the body, for diagnosis, with the values of secret-named JSON members
    /// and form fields hidden (see ``Redaction/defaultQueryItemNames``).
    public let bodyPreview: String
    /// The response's `Content-Type`, when the decoded bytes came with their response (an
    /// ``Endpoint/Response`` or an ``HTTPStatusError``); `nil` for bare bytes.
    public let contentType: String?
    /// The URL the body came from, redacted (see ``Redaction/default``), when the decoded bytes
    /// came with their response (an ``Endpoint/Response`` or an ``HTTPStatusError``); `nil` for
    /// bare bytes, such as those of `Future<Data>.decoded()`.
    public let url: String?
    /// Where the description says the problem is, when not at ``codingPath``: the object that
    /// lacks a missing key (`items[2]` for the key `items[2].name`).
    private let place: String?

    /// Creates a failure from its parts.
    init(
        typeName: String, codingPath: String, reason: String, bodyPreview: String = "", contentType: String? = nil,
        url: String? = nil,
        place: String? = nil
    ) {
        self.url = url
        self.place = place
        self.typeName = typeName
        self.codingPath = codingPath
        self.reason = reason
        self.bodyPreview = bodyPreview
        self.contentType = contentType
    }

    /// A sentence naming the type, the URL when known (redacted), the path and the reason; for a body that is not JSON at
    /// all, its content type and its first bytes (secret-named fields hidden), which usually
    /// say what the server sent instead (an HTML error page, a proxy's login form).
    ///
    /// ```text
    /// Could not decode Product: the data is not valid JSON (the body is not JSON at all) at the top level. Content-Type: text/html; body: <html><h1>Bad gateway</h1>…
    /// ```
    public var description: String {
        let path = place ?? codingPath
        let place = path.isEmpty ? "at the top level" : "at \(path)"
        let source = url.map { " from \($0)" } ?? ""
        var text = "Could not decode \(typeName)\(source): \(reason) \(place)."
        if isNotJSON {
            text += " Content-Type: \(contentType ?? "not given"); body: \(Self.shortened(bodyPreview))"
        }
        return text
    }

    /// Whether the body is not JSON at all (as opposed to broken JSON or JSON of another shape).
    private var isNotJSON: Bool {
        reason.hasSuffix("(the body is not JSON at all)")
    }

    /// Whether the first byte that is not white space can begin a JSON text.
    private static func startsLikeJSON(_ body: Data) -> Bool {
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) else {
            return false
        }
        return Array("{[\"-0123456789tfn".utf8).contains(first)
    }

    /// The preview on one line, at most 80 characters.
    private static func shortened(_ preview: String) -> String {
        let line = preview.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 80 ? String(line.prefix(80)) + "…" : line
    }

    /// Decodes `type` from `data`, turning any error into a `DecodingFailure`. An empty body
    /// decodes into ``NoContent`` and into an optional (as `nil`) without the decoder.
    static func decode<T: Decodable>(
        _ type: T.Type,
        from data: Data,
        using decoder: JSONDecoder,
        contentType: String? = nil,
        url: URL? = nil
    ) throws -> T {
        if data.isEmpty, let empty = T.self as? any EmptyBodyDecodable.Type, let value = empty.emptyBody as? T {
            return value
        }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(error, decoding: type, body: data, contentType: contentType, url: url)
        }
    }

    /// Describes a `DecodingError` met while decoding `type` from `body`.
    init(_ error: DecodingError, decoding type: Any.Type, body: Data, contentType: String? = nil, url: URL? = nil) {
        let path: [any CodingKey]
        let reason: String
        var place: String?
        switch error {
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            place = Self.render(context.codingPath)
            reason = "the key \"\(key.stringValue)\" is missing"
        case .valueNotFound(let expected, let context):
            path = context.codingPath
            reason = "a \(expected) was expected but the value is null"
        case .typeMismatch(let expected, let context):
            path = context.codingPath
            reason = "a \(expected) was expected but the value is of another type"
        case .dataCorrupted(let context):
            path = context.codingPath
            if body.isEmpty {
                reason = "the body is empty (decode into NoContent or an optional to accept that), not JSON"
            } else if context.codingPath.isEmpty, !Self.startsLikeJSON(body) {
                reason = "the data is not valid JSON (the body is not JSON at all)"
            } else {
                reason = "the data is not valid JSON (\(context.debugDescription))"
            }
        @unknown default:
            path = []
            reason = String(describing: error)
        }
        self.init(
            typeName: String(describing: type),
            codingPath: Self.render(path),
            reason: reason,
            bodyPreview: RedactBody.preview(of: body, limit: 200),
            contentType: contentType,
            url: url.map { Redaction.default.redact($0) },
            place: place
        )
    }

    /// Renders a coding path as `items[2].name`; also used for a body that cannot be encoded.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}

extension DecodingFailure: CustomDebugStringConvertible {
    /// The same words as ``description``.
    public var debugDescription: String { description }
}

extension DecodingFailure: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
