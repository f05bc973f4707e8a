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
    /// The hash of all of the above, computed once: a key is hashed on every look-up of the
    /// tables it goes into (several per request), and hashing the URL and headers each time
    /// cost more than everything else the tables do.
    private let hash: Int

    /// The key of `request`, or `nil` when it cannot be compared by value: it has no URL, or
    /// its body is a stream (whose bytes cannot be read without consuming them).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - selection: Which of its headers count.
    ///   - carriers: Where it can carry a credential; always counted.
    ///   - identity: The request's credentials when the caller already knows them (see
    ///     ``CredentialCarriers/identity(of:)``).
    init?(
        _ request: URLRequest,
        headers selection: HeaderSelection,
        credentials carriers: CredentialCarriers,
        identity: CredentialIdentity? = nil
    ) {
        guard let url = request.url, request.httpBodyStream == nil else {
            return nil
        }
        method = Self.method(of: request)
        self.url = url.absoluteString
        headers = selection.fields(of: request, leavingOut: carriers)
        body = request.httpBody
        credentials = identity ?? carriers.identity(of: request)
        var hasher = Hasher()
        hasher.combine(method)
        hasher.combine(self.url)
        hasher.combine(headers)
        hasher.combine(body)
        hasher.combine(credentials)
        hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    static func == (lhs: RequestKey, rhs: RequestKey) -> Bool {
        lhs.hash == rhs.hash && lhs.method == rhs.method && lhs.url == rhs.url && lhs.headers == rhs.headers
            && lhs.body == rhs.body && lhs.credentials == rhs.credentials
    }

    /// The method of `request` as an ``HTTPMethod``; `GET` when it names none, as URLSession
    /// does. The common methods, already upper-case, are not upper-cased again.
    static func method(of request: URLRequest) -> HTTPMethod {
        switch request.httpMethod {
        case nil, "GET": .get
        case "HEAD": .head
        case "POST": .post
        case "PUT": .put
        case "DELETE": .delete
        case let other?: HTTPMethod(rawValue: other)
        }
    }
}
