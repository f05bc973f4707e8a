import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one check of what a request puts on the wire, used by ``Endpoint/urlRequest()`` and by
/// the package's transport for every request it sends (each redirect hop too): the method is a
/// token, every header name a token, every value free of control characters but HTAB, and the
/// URL is `http` or `https` with a host. A CR or LF in any of them would end a line early and
/// let the rest be read as another header, or as a whole second request.
///
/// It reads the request's bytes once and allocates nothing when the request is fine.
extension HTTPFieldSyntax {
    /// The first part of a request that cannot be sent.
    enum RequestProblem: Equatable, Sendable {
        /// The method (as written) is not an RFC 9110 token.
        case method(String)
        /// This header field name is not an RFC 9110 token.
        case headerName(String)
        /// The value of the header field with this name holds a control character other than
        /// HTAB (CR, LF, NUL, DEL…). The value itself is not kept: it may be a secret.
        case headerValue(name: String)
        /// The URL is missing, or it is not an `http` or `https` URL with a host.
        case url(URL?)
    }

    /// What is wrong with `request`, or `nil` when it may be sent: its URL, then its method,
    /// then its header fields (of several bad fields, the one whose name sorts first, so that
    /// the answer does not depend on a dictionary's order).
    ///
    /// - Parameter request: A request about to be sent.
    /// - Returns: The first problem, or `nil`.
    static func problem(in request: URLRequest) -> RequestProblem? {
        if let problem = problem(url: request.url) {
            return problem
        }
        if let method = request.httpMethod, let problem = problem(method: method) {
            return problem
        }
        return request.allHTTPHeaderFields.flatMap(problem(inFields:))
    }

    /// The problem with the header field whose name sorts first among the bad ones in `fields`,
    /// or `nil` when every field may be sent.
    static func problem(inFields fields: [String: String]) -> RequestProblem? {
        var first: (name: String, problem: RequestProblem)?
        for (name, value) in fields {
            guard let problem = problem(headerName: name, value: value) else { continue }
            if first.map({ name < $0.name }) ?? true {
                first = (name, problem)
            }
        }
        return first?.problem
    }

    /// `.method(method)` when `method` is not a token; `nil` for `"GET"` or `"PURGE"`.
    static func problem(method: String) -> RequestProblem? {
        isToken(method) ? nil : .method(method)
    }

    /// The problem with the header field `name: value`, the name's first; `nil` when it may be
    /// sent.
    static func problem(headerName name: String, value: String) -> RequestProblem? {
        if !isToken(name) {
            return .headerName(name)
        }
        return isValidFieldValue(value) ? nil : .headerValue(name: name)
    }

    /// `.url(url)` unless `url` is an `http` or `https` URL (in any case) with a host.
    static func problem(url: URL?) -> RequestProblem? {
        // `URL.host` makes a string, and allocates for a host of more than 15 bytes (measured);
        // `absoluteString` is the URL's own text.
        guard let url, hasHTTPSchemeAndHost(url.absoluteString) else { return .url(url) }
        return nil
    }

    /// What is wrong in `text`, which should be a token, in a few words: `"it is empty"`,
    /// `"it contains CR"`, `"it contains a space"`, `"it contains \":\""`; `nil` for a token.
    static func tokenFault(in text: String) -> String? {
        guard let byte = text.utf8.first(where: { !isTokenCharacter($0) }) else {
            return text.isEmpty ? "it is empty" : nil
        }
        return "it contains " + name(of: byte)
    }

    /// A byte named for people: `CR`, `LF`, `NUL`, `a tab`, `a space`, `DEL`, `the control
    /// character 0x01`, `a non-ASCII character`, or the character quoted.
    private static func name(of byte: UInt8) -> String {
        switch byte {
        case 0x0D: "CR"
        case 0x0A: "LF"
        case 0x00: "NUL"
        case 0x09: "a tab"
        case 0x20: "a space"
        case 0x7F: "DEL"
        case 0x00..<0x20: "the control character 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        case 0x80...: "a non-ASCII character"
        default: "\"" + String(UnicodeScalar(byte)) + "\""
        }
    }

    /// Whether `text` starts with `http://` or `https://`, in any case, and then a host that is
    /// not empty: the authority's part after any `user:password@` and before any `:port`, up to
    /// the first `/`, `?` or `#` (an IPv6 literal's colons are inside its brackets).
    private static func hasHTTPSchemeAndHost(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        var schemeLength = 0
        while let byte = bytes.next(), byte != UInt8(ascii: ":") {
            let lower = byte | 0x20  // ASCII letters only; no other byte matches below
            switch schemeLength {
            case 0: guard lower == UInt8(ascii: "h") else { return false }
            case 1, 2: guard lower == UInt8(ascii: "t") else { return false }
            case 3: guard lower == UInt8(ascii: "p") else { return false }
            case 4: guard lower == UInt8(ascii: "s") else { return false }
            default: return false
            }
            schemeLength += 1
        }
        guard schemeLength == 4 || schemeLength == 5, bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/") else {
            return false
        }
        var hostLength = 0
        var inPort = false
        var inBrackets = false
        while let byte = bytes.next(), byte != UInt8(ascii: "/"), byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") {
            switch byte {
            case UInt8(ascii: "@"):  // what came before was user information
                hostLength = 0
                inPort = false
            case UInt8(ascii: "["):
                inBrackets = true
                hostLength += 1
            case UInt8(ascii: "]"):
                inBrackets = false
                hostLength += 1
            case UInt8(ascii: ":") where !inBrackets:
                inPort = true
            default:
                hostLength += inPort ? 0 : 1
            }
        }
        return hostLength > 0
    }
}
