import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What ``PackageSession`` checks at every hop: the request before it is sent, whoever made it
/// (an endpoint, the caller, a composer, a redirect policy), and the response's framing once it
/// has arrived; and what a ``NetworkSession`` checks once: the headers the
/// session's configuration adds to every request.
///
/// URLSession does not check either on Linux: a CR or LF in a method, in a header name, or in a
/// value set through `allHTTPHeaderFields` goes out as written (a server received an injected
/// header, and a whole second request), and of two different `Content-Length` fields libcurl
/// reads the body by the last one.
enum WireCheck {
    /// Throws when `request` cannot be sent as it is, so that nothing of it is sent.
    ///
    /// - Parameter request: The request of one hop.
    /// - Throws: ``TransportError/invalidMethod(_:)``, ``TransportError/invalidHeaderName(_:)``,
    ///   ``TransportError/invalidHeaderValue(name:)`` or ``TransportError/unsupportedURL(_:)``.
    static func request(_ request: URLRequest) throws(TransportError) {
        guard let problem = HTTPFieldSyntax.problem(in: request) else { return }
        throw TransportError(problem)
    }

    /// The error every request sent with a session configuration's `httpAdditionalHeaders`
    /// fails with, when one of them cannot be sent (URLSession adds them to each request as
    /// written: measured, a CR LF in one injects a header on Linux); `nil` when all may be.
    /// Names or values that are not strings are left to URLSession.
    ///
    /// - Parameter headers: `URLSessionConfiguration.httpAdditionalHeaders`.
    static func problem(inAdditionalHeaders headers: [AnyHashable: Any]?) -> TransportError? {
        guard let headers, !headers.isEmpty else { return nil }
        var fields: [String: String] = [:]
        for (key, value) in headers {
            if let name = key.base as? String, let value = value as? String {
                fields[name] = value
            }
        }
        return HTTPFieldSyntax.problem(inFields: fields).map(TransportError.init)
    }

    /// ``problem(inAdditionalHeaders:)`` of `URLSession.shared`, whose configuration is fixed.
    static let sharedSessionProblem = problem(inAdditionalHeaders: URLSession.shared.configuration.httpAdditionalHeaders)

    /// The error a response fails with when it declares conflicting lengths
    /// (`Content-Length: 5` and `Content-Length: 13`, which swift-corelibs-foundation shows as
    /// `"5, 13"`) or one that is not a number: its body may hold the start of another response,
    /// or lack the end of its own (RFC 9112 §6.3); `nil` when it may be read. Repeats of one
    /// length (`"5, 5"`) pass. The session's delegate asks as the response's head arrives, so
    /// that no byte of such a body is kept or written to a file.
    ///
    /// - Parameters:
    ///   - response: The response of one hop.
    ///   - url: The URL requested, which names it when the response has none.
    /// - Returns: ``TransportError/invalidContentLength(_:url:)``, or `nil`.
    static func problem(in response: URLResponse, requested url: URL?) -> TransportError? {
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation reads a length only from a field that is one number
        // (measured: "5" gives 5; "5, 5" and "5, 13" give -1), so then nothing is left to check.
        if response.expectedContentLength >= 0 { return nil }
        #endif
        guard let http = response as? HTTPURLResponse, let value = ContentLength.field(of: http),
            ContentLength.reading(value) != .length
        else { return nil }
        let named = (http.url ?? url).map { Redaction.default.redact($0) } ?? "(no URL)"
        return .invalidContentLength(value, url: named)
    }
}

/// A `Content-Length` field value as received, which may be several fields joined by `", "`.
enum ContentLength: Equatable {
    /// One length, perhaps repeated: `"5"`, `"5, 5"`, `"5,5"`.
    case length
    /// Lengths that differ: `"5, 13"`.
    case conflicting
    /// Something that is not a list of lengths: `""`, `"abc"`, `"5, x"`, `"-1"`, or a number too
    /// large for an `Int`.
    case invalid

    /// The `Content-Length` field of `response` as received, found by comparing names byte by
    /// byte (`value(forHTTPHeaderField:)` makes a lower-cased copy of each name it passes).
    static func field(of response: HTTPURLResponse) -> String? {
        for (key, value) in response.allHeaderFields {
            if let name = key.base as? String, isContentLengthName(name) {
                return value as? String
            }
        }
        return nil
    }

    /// Whether `name` is `Content-Length` in any case.
    private static func isContentLengthName(_ name: String) -> Bool {
        let target = "content-length".utf8
        guard name.utf8.count == target.count else { return false }
        return zip(name.utf8, target).allSatisfy { byte, lower in
            byte == lower || (lower >= UInt8(ascii: "a") && byte ^ 0x20 == lower)
        }
    }

    /// Reads `value` byte by byte, without allocating: decimal numbers separated by commas, with
    /// spaces or tabs around them (empty elements are ignored, RFC 9110 §5.6.1).
    static func reading(_ value: String) -> ContentLength {
        var first: Int?
        var current: Int?
        var afterNumber = false  // whitespace followed the current number
        var conflicting = false
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard !afterNumber else { return .invalid }
                let (times, overflow) = (current ?? 0).multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                guard !overflow, !overflowSum else { return .invalid }
                current = sum
            case UInt8(ascii: ","):
                if let number = current {
                    conflicting = conflicting || (first.map { $0 != number } ?? false)
                    first = first ?? number
                }
                current = nil
                afterNumber = false
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                afterNumber = current != nil
            default:
                return .invalid
            }
        }
        if let number = current {
            conflicting = conflicting || (first.map { $0 != number } ?? false)
            first = first ?? number
        }
        guard first != nil else { return .invalid }
        return conflicting ? .conflicting : .length
    }
}

extension TransportError {
    /// The error for a request that cannot be sent because of `problem`.
    init(_ problem: HTTPFieldSyntax.RequestProblem) {
        switch problem {
        case .method(let method): self = .invalidMethod(method)
        case .headerName(let name): self = .invalidHeaderName(name)
        case .headerValue(let name): self = .invalidHeaderValue(name: name)
        case .url(let url): self = .unsupportedURL(url.map { Redaction.default.redact($0) })
        }
    }
}
