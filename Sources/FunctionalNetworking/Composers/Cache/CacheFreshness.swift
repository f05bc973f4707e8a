import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stored response says about its own freshness and how to revalidate it (RFC 9111
/// §4.2.1 and §4.3.1), read once when it is stored.
struct CacheFreshness {
    /// How long the response is fresh by its own headers: `Cache-Control: max-age`, else
    /// `Expires` minus `Date`; `nil` when it says nothing.
    let explicitLifetime: Duration?
    /// The `ETag`, sent back as `If-None-Match`.
    let entityTag: String?
    /// The `Last-Modified` date, sent back as `If-Modified-Since`.
    let lastModified: String?

    /// Reads `response`'s validators; its lifetime is known already.
    init(_ response: HTTPURLResponse, explicitLifetime: Duration?) {
        self.explicitLifetime = explicitLifetime
        entityTag = response.value(forHTTPHeaderField: "ETag")
        lastModified = response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// How long `response` is fresh by its own headers: `max-age` in `directives` (its
    /// `Cache-Control`), else `Expires` minus `Date`; `nil` when it says nothing.
    static func explicitLifetime(of response: HTTPURLResponse, cacheControl directives: CacheDirectives) -> Duration? {
        if let maxAge = directives.maxAge {
            return .seconds(maxAge)
        }
        guard let expires = response.value(forHTTPHeaderField: "Expires") else {
            return nil
        }
        // An invalid date, such as "0", means already expired (§5.3).
        let end = HTTPDate.parse(expires)
        let start = response.value(forHTTPHeaderField: "Date").flatMap(HTTPDate.parse) ?? Date()
        return end.map { .seconds(max(0, $0.timeIntervalSince(start))) } ?? .zero
    }

    /// Whether the response can be revalidated with a conditional request.
    var hasValidator: Bool { entityTag != nil || lastModified != nil }

    /// `request` made conditional on the stored response (§4.3.1).
    func conditional(_ request: URLRequest) -> URLRequest {
        var request = request
        if let entityTag {
            request.setValue(entityTag, forHTTPHeaderField: "If-None-Match")
        }
        if let lastModified {
            request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
        return request
    }

    /// Whether the caller made `request` conditional itself, in which case its 304 is the
    /// caller's to read, not the cache's.
    static func isConditional(_ request: URLRequest) -> Bool {
        guard let fields = request.allHTTPHeaderFields, !fields.isEmpty else { return false }
        return HeaderLookup.containsAny(of: conditionalFields, in: fields)
    }

    private static let conditionalFields = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"]

    /// The stored response with the header fields of the `304` that revalidated it (§4.3.4),
    /// keeping its own framing fields.
    static func updated(_ stored: HTTPURLResponse, with notModified: HTTPURLResponse) -> HTTPURLResponse {
        var fields: [String: String] = [:]
        for (name, value) in stored.allHeaderFields {
            fields[String(describing: name)] = String(describing: value)
        }
        let framing: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-type"]
        for (name, value) in notModified.allHeaderFields where !framing.contains(String(describing: name).lowercased()) {
            let name = String(describing: name)
            fields.removeValue(forKey: fields.keys.first { $0.caseInsensitiveCompare(name) == .orderedSame } ?? name)
            fields[name] = String(describing: value)
        }
        guard let url = stored.url,
            let response = HTTPURLResponse(url: url, statusCode: stored.statusCode, httpVersion: "HTTP/1.1", headerFields: fields)
        else { return stored }
        return response
    }
}
