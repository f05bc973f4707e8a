/// The parsed request line and header section of one HTTP/1.x request.
struct RequestHead: Equatable {
    /// How the body that follows the head is delimited.
    enum BodyFraming: Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    var method: String
    var target: String
    var version: String
    var headers: [LoopbackServer.Header]
    var framing: BodyFraming

    /// Whether the client wants the connection kept open after the response.
    ///
    /// HTTP/1.1 keeps alive unless `Connection: close`; HTTP/1.0 closes unless
    /// `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        let tokens = headers.values(named: "Connection").flatMap(HTTPParser.commaSeparatedTokens)
        if tokens.contains(where: { $0.caseInsensitiveEquals("close") }) { return false }
        if version == "HTTP/1.0" { return tokens.contains { $0.caseInsensitiveEquals("keep-alive") } }
        return true
    }

    /// Whether the client waits for `100 Continue` before sending its body.
    var expectsContinue: Bool {
        guard framing != .none, framing != .contentLength(0) else { return false }
        return headers.firstValue(named: "Expect")?.caseInsensitiveEquals("100-continue") ?? false
    }
}

/// Why a request could not be read; each maps to the status the server answers with
/// before closing the connection.
enum HTTPParseError: Error, Equatable {
    case badRequest(String)
    case headersTooLarge
    case bodyTooLarge
    case unsupportedTransferEncoding(String)
    case unsupportedVersion(String)

    /// The response status for this error.
    var status: Int {
        switch self {
        case .badRequest: 400
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferEncoding: 501
        case .unsupportedVersion: 505
        }
    }

    /// A one-line explanation sent as the error response body.
    var message: String {
        switch self {
        case let .badRequest(reason): "Bad request: \(reason)"
        case .headersTooLarge: "Request header section exceeds \(HTTPParser.maxHeadSize) bytes"
        case .bodyTooLarge: "Request body exceeds \(HTTPParser.maxBodySize) bytes"
        case let .unsupportedTransferEncoding(coding): "Unsupported Transfer-Encoding: \(coding)"
        case let .unsupportedVersion(version): "Unsupported HTTP version: \(version)"
        }
    }
}

/// Pure parsing of HTTP/1.x request heads and chunk-size lines. No I/O.
enum HTTPParser {
    // Computed, not stored: a stored static is initialised once behind a lock that, under
    // ThreadSanitizer, every read takes again (the Swift runtime never marks such a once done
    // there), and the head scanner reads these for every byte on hundreds of threads.

    /// The largest accepted header section (request line + headers), in bytes.
    static var maxHeadSize: Int { 64 * 1024 }
    /// The largest request body kept in memory, in bytes (``LoopbackServer/BodyRecording/keep``).
    static var maxBodySize: Int { 64 * 1024 * 1024 }
    /// The longest accepted chunk-size line, in bytes.
    static var maxChunkLineSize: Int { 4 * 1024 }

    private static var lineFeed: UInt8 { UInt8(ascii: "\n") }
    private static var carriageReturn: UInt8 { UInt8(ascii: "\r") }

    /// Finds the end of a header section: the blank line (`CRLF CRLF`, or bare `LF LF`).
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - start: Where the head starts.
    ///   - scanFrom: Where to resume scanning (an earlier call's `resume`), to stay linear.
    /// - Returns: `.found(end)` where `end` is the index after the blank line, or
    ///   `.notYet(resume)` with the index to resume from once more bytes arrive.
    static func findHeadEnd(in bytes: [UInt8], start: Int, scanFrom: Int) -> HeadSearch {
        var index = max(start, scanFrom)
        while index < bytes.count {
            if bytes[index] == lineFeed {
                let next = index + 1
                if next < bytes.count, bytes[next] == lineFeed { return .found(next + 1) }
                if next + 1 < bytes.count, bytes[next] == carriageReturn, bytes[next + 1] == lineFeed {
                    return .found(next + 2)
                }
                if next + 1 >= bytes.count { return .notYet(index) }
            }
            index += 1
        }
        return .notYet(index)
    }

    /// The outcome of ``findHeadEnd(in:start:scanFrom:)``.
    enum HeadSearch: Equatable {
        case found(Int)
        case notYet(Int)
    }

    /// Parses a complete header section (including its terminating blank line).
    ///
    /// - Parameter bytes: The header section.
    /// - Returns: The parsed head.
    /// - Throws: `HTTPParseError` for anything that is not a well-formed HTTP/1.x request.
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> RequestHead {
        var lines = splitLines(bytes)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw .badRequest("empty request") }
        let (method, target, version) = try parseRequestLine(requestLine)
        var headers: [LoopbackServer.Header] = []
        for line in lines.dropFirst() {
            headers.append(try parseHeaderLine(line))
        }
        let framing = try bodyFraming(headers: headers, version: version)
        return RequestHead(method: method, target: target, version: version, headers: headers, framing: framing)
    }

    /// Parses a chunk-size line (without its line ending), ignoring chunk extensions.
    ///
    /// - Parameter line: e.g. `1a;name=value`.
    /// - Returns: The chunk size.
    /// - Throws: `.badRequest` for a missing or non-hex size, `.bodyTooLarge` for a huge one.
    static func parseChunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
        let sizeField = line.prefix { $0 != UInt8(ascii: ";") }
        let digits = String(decoding: sizeField, as: UTF8.self).trimmingOptionalWhitespace()
        guard !digits.isEmpty, digits.count <= 15, let size = Int(digits, radix: 16), size >= 0 else {
            if digits.count > 15, digits.allSatisfy(\.isHexDigit) { throw .bodyTooLarge }
            throw .badRequest("invalid chunk size")
        }
        return size
    }

    /// Splits a header list value such as `close, Upgrade` into trimmed, non-empty tokens.
    static func commaSeparatedTokens(_ value: String) -> [String] {
        value.split(separator: ",").map { String($0).trimmingOptionalWhitespace() }.filter { !$0.isEmpty }
    }

    private static func splitLines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(separator: lineFeed, omittingEmptySubsequences: false).map { line in
            line.last == carriageReturn ? line.dropLast() : line
        }
    }

    private static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) throws(HTTPParseError) -> (String, String, String) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .badRequest("malformed request line") }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { throw .badRequest("invalid method") }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest("invalid request target")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            let digit = "0123456789"
            let shaped =
                version.count == 8 && version.hasPrefix("HTTP/")
                && version.dropFirst(5).enumerated().allSatisfy { $0.offset == 1 ? $0.element == "." : digit.contains($0.element) }
            if shaped { throw .unsupportedVersion(version) }
            throw .badRequest("invalid HTTP version")
        }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), version)
    }

    private static func parseHeaderLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> LoopbackServer.Header {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .badRequest("header line without colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { throw .badRequest("invalid header name") }
        let value = line[line.index(after: colon)...]
        guard !value.contains(where: { $0 == 0 || $0 == carriageReturn || $0 == lineFeed }) else {
            throw .badRequest("invalid character in header value")
        }
        return LoopbackServer.Header(
            String(decoding: name, as: UTF8.self),
            String(decoding: value, as: UTF8.self).trimmingOptionalWhitespace()
        )
    }

    private static func bodyFraming(
        headers: [LoopbackServer.Header], version: String
    ) throws(HTTPParseError) -> RequestHead.BodyFraming {
        let codings = headers.values(named: "Transfer-Encoding").flatMap(commaSeparatedTokens)
        let lengths = headers.values(named: "Content-Length").flatMap(commaSeparatedTokens)
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw .badRequest("both Transfer-Encoding and Content-Length") }
            guard version == "HTTP/1.1" else { throw .badRequest("Transfer-Encoding in HTTP/1.0") }
            guard codings.count == 1, codings[0].caseInsensitiveEquals("chunked") else {
                throw .unsupportedTransferEncoding(codings.joined(separator: ", "))
            }
            return .chunked
        }
        guard let first = lengths.first else { return .none }
        guard lengths.allSatisfy({ $0 == first }) else { throw .badRequest("conflicting Content-Length") }
        guard first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw .badRequest("invalid Content-Length")
        }
        guard first.count <= 15, let length = Int(first) else { throw .bodyTooLarge }
        // The limit on a kept body, `maxBodySize`, is the connection's to apply: a server that
        // keeps only digests takes any size.
        return .contentLength(length)
    }

    /// `tchar` from RFC 9110: the characters allowed in methods and header names.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and horizontal tabs (HTTP's `OWS`).
    func trimmingOptionalWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }),
            let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
