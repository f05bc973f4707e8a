import Foundation

extension LoopbackServer.RecordedRequest {
    /// One part of a `multipart/form-data` body, as it arrived.
    public struct FormPart: Sendable, Hashable {
        /// The field's name, with `%22`, `%0D` and `%0A` turned back into `"`, CR and LF.
        public var name: String
        /// The file name, for a file, decoded as ``name`` is.
        public var filename: String?
        /// The part's `Content-Type`, if it has one.
        public var contentType: String?
        /// Every header of the part, in order.
        public var headers: [LoopbackServer.Header]
        /// The part's bytes.
        public var body: Data

        /// The body decoded as UTF-8 (invalid sequences become U+FFFD).
        public var bodyText: String {
            String(decoding: body, as: UTF8.self)
        }
    }

    /// The parts of a `multipart/form-data` body, in order; `nil` when the request is not
    /// `multipart/form-data` or its body is not well formed (RFC 7578 and RFC 2046 §5.1).
    public var formParts: [FormPart]? {
        guard let type = header("Content-Type"),
            type.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.parameter("boundary", in: type), !boundary.isEmpty
        else { return nil }
        return Self.parts(of: body, boundary: Array(("--" + boundary).utf8))
    }

    /// The fields of an `application/x-www-form-urlencoded` body, in order, decoded (`+` as a
    /// space); `nil` when the request has another `Content-Type`.
    public var formFields: [URLQueryItem]? {
        guard let type = header("Content-Type"), type.lowercased().hasPrefix("application/x-www-form-urlencoded") else {
            return nil
        }
        guard !body.isEmpty else { return [] }
        return bodyText.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    private static func parts(of data: Data, boundary: [UInt8]) -> [FormPart]? {
        let body = Data(data)  // indices from 0
        let crlf: [UInt8] = [13, 10]
        // The first delimiter starts the body or follows a preamble and CRLF.
        guard var position = firstIndex(of: boundary, in: body, from: 0),
            position == 0 || (position >= 2 && Array(body[(position - 2)..<position]) == crlf)
        else { return nil }
        var parts: [FormPart] = []
        while true {
            position += boundary.count
            if body.count >= position + 2, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") {
                return parts
            }
            guard body.count >= position + 2, Array(body[position..<(position + 2)]) == crlf else { return nil }
            position += 2
            guard let headEnd = firstIndex(of: crlf + crlf, in: body, from: position) else { return nil }
            let headText = String(decoding: body[position..<headEnd], as: UTF8.self)
            let headers = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }.compactMap { line -> LoopbackServer.Header? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return LoopbackServer.Header(
                    String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let contentStart = headEnd + 4
            guard let next = firstIndex(of: crlf + boundary, in: body, from: contentStart) else { return nil }
            let disposition = headers.first { $0.hasName("Content-Disposition") }?.value ?? ""
            guard let name = parameter("name", in: disposition) else { return nil }
            parts.append(
                FormPart(
                    name: formDecoded(name),
                    filename: parameter("filename", in: disposition).map(formDecoded),
                    contentType: headers.first { $0.hasName("Content-Type") }?.value,
                    headers: headers,
                    body: Data(body[contentStart..<next])))
            position = next + 2
        }
    }

    /// The value of parameter `name` in a header value such as `form-data; name="a"`. A quoted
    /// value runs to the next `"` (which a name never holds unescaped), `;` included.
    private static func parameter(_ name: String, in value: String) -> String? {
        var rest = Substring(value)
        guard let first = rest.firstIndex(of: ";") else { return nil }
        rest = rest[rest.index(after: first)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            let parsed: Substring
            if rest.first == "\"" {
                let inner = rest.dropFirst()
                guard let close = inner.firstIndex(of: "\"") else { return nil }
                parsed = inner[..<close]
                rest = inner[inner.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                parsed = Substring(rest[..<end].trimmingCharacters(in: .whitespaces))
                rest = rest[end...]
            }
            if key == name { return String(parsed) }
            guard let semicolon = rest.firstIndex(of: ";") else { return nil }
            rest = rest[rest.index(after: semicolon)...]
        }
        return nil
    }

    /// A name as browsers escape it in a `Content-Disposition` parameter, decoded.
    private static func formDecoded(_ text: String) -> String {
        text.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
            .replacingOccurrences(of: "%0A", with: "\n")
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (Foundation's search, which
    /// stays fast in a debug build, unlike a loop of our own over every byte).
    private static func firstIndex(of needle: [UInt8], in haystack: Data, from start: Int) -> Int? {
        guard !needle.isEmpty, start <= haystack.count else { return nil }
        let base = haystack.startIndex
        return haystack.range(of: Data(needle), in: (base + start)..<haystack.endIndex).map { $0.lowerBound - base }
    }

}
