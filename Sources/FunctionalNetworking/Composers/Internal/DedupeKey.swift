import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What makes two requests "the same" for ``RequestDeduplicator`` and, with fewer headers by
/// default, for ``ResponseCache``: compared by value, never by the identity of the
/// `URLRequest`.
struct DedupeKey: Hashable, Sendable {
    /// The method, upper-cased (`GET` when the request names none).
    let method: HTTPMethod
    /// The absolute URL as text.
    let url: String
    /// The headers that matter, keyed by lower-cased name.
    let headers: [String: String]
    /// The body, or `nil` when there is none.
    let body: Data?

    /// The key of `request`, or `nil` when it cannot be compared by value: it has no URL, or
    /// its body is a stream (whose bytes cannot be read without consuming them).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - selection: Which of its headers count.
    init?(_ request: URLRequest, headers selection: HeaderSelection) {
        guard let url = request.url, request.httpBodyStream == nil else {
            return nil
        }
        method = Self.method(of: request)
        self.url = url.absoluteString
        headers = selection.fields(of: request)
        body = request.httpBody
    }

    /// The method of `request` as an ``HTTPMethod``; `GET` when it names none, as URLSession
    /// does.
    static func method(of request: URLRequest) -> HTTPMethod {
        HTTPMethod(rawValue: request.httpMethod ?? "GET")
    }
}
