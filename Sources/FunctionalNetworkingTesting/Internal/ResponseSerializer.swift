import Foundation

/// Turns a ``LoopbackServer/Response`` into wire bytes.
enum ResponseSerializer {
    /// Header names the server owns: it always writes its own framing and connection headers.
    private static let managedHeaders = ["Content-Length", "Transfer-Encoding", "Connection"]

    /// Whether a response to `method` with `status` carries body bytes on the wire.
    static func sendsBody(status: Int, method: String) -> Bool {
        if method == "HEAD" { return false }
        return !((100..<200).contains(status) || status == 204 || status == 304)
    }

    /// The status line and header section, ending with the blank line.
    ///
    /// - Parameters:
    ///   - response: The response to describe.
    ///   - keepAlive: Whether the connection stays open; `false` adds `Connection: close`.
    ///   - announceKeepAlive: Whether to add `Connection: keep-alive` (for HTTP/1.0 clients).
    /// - Returns: The head bytes.
    static func head(for response: LoopbackServer.Response, keepAlive: Bool, announceKeepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(sanitized(response.reasonPhrase))\r\n"
        for header in response.headers where !managedHeaders.contains(where: header.hasName) {
            text += "\(sanitized(header.name)): \(sanitized(header.value))\r\n"
        }
        switch response.repetition {
        case _ where response.streamParts != nil: text += "Transfer-Encoding: chunked\r\n"
        case .once: text += "Content-Length: \(response.body.count)\r\n"
        case .times(let count): text += "Content-Length: \(response.body.count * max(0, count))\r\n"
        case .forever: text += "Transfer-Encoding: chunked\r\n"
        }
        if !keepAlive {
            text += "Connection: close\r\n"
        } else if announceKeepAlive {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// A short plain-text error response for a request the server could not read.
    static func errorResponse(for error: HTTPParseError) -> LoopbackServer.Response {
        .text(error.message + "\n", status: error.status)
    }

    /// The interim response that tells a client to go ahead and send its body.
    static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Strips CR and LF so a scripted value cannot split the header section.
    private static func sanitized(_ text: String) -> String {
        guard text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return String(text.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" })
    }
}
