import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What makes two requests "the same" for ``RequestDeduplicator`` and, with fewer headers by
/// default, for ``ResponseCache``: compared by value, never by the identity of the
/// `URLRequest`, and never equal for two requests that carry different credentials.
struct RequestKey: Hashable, Sendable {
    /// The method, upper-cased (`GET` when the request names none).
    let method: HTTPMethod
    /// The absolute URL as text.
    let url: String
    /// The headers that matter, keyed by lower-cased name; credential headers are left out,
    /// as ``credentials`` stands for them.
    let headers: [String: String]
    /// The body, or `nil` when there is none.
    let body: Data?
    /// Who the request speaks for, whatever the header selection says.
    let credentials: CredentialIdentity

    /// The key of `request`, or `nil` when it cannot be compared by value: it has no URL, or
    /// its body is a stream (whose bytes cannot be read without consuming them).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - selection: Which of its headers count.
    ///   - carriers: Where it can carry a credential; always counted.
    init?(_ request: URLRequest, headers selection: HeaderSelection, credentials carriers: CredentialCarriers) {
        guard let url = request.url, request.httpBodyStream == nil else {
            return nil
        }
        method = Self.method(of: request)
        self.url = url.absoluteString
        headers = selection.fields(of: request).filter { !carriers.carriesCredential($0.key) }
        body = request.httpBody
        credentials = carriers.identity(of: request)
    }

    /// The method of `request` as an ``HTTPMethod``; `GET` when it names none, as URLSession
    /// does.
    static func method(of request: URLRequest) -> HTTPMethod {
        HTTPMethod(rawValue: request.httpMethod ?? "GET")
    }
}
