import Foundation

/// Renders a URL as text with its secrets replaced, for `Redaction.redact(_:)` (for a `URL`).
///
/// The query is rebuilt by hand, piece by piece, so that the marker can be shown as written
/// (`<redacted>`, not `%3Credacted%3E`) and every other piece keeps its exact encoding.
enum RedactURL {
    /// The text of `url` with secret query values and (if asked) credentials replaced.
    static func text(of url: URL, redaction: Redaction) -> String {
        // Most URLs have nothing to hide: keep URLComponents (a full re-parse) for those that do.
        let hidesCredentials = redaction.redactsURLCredentials && (url.user != nil || url.password != nil)
        let hidesQueryItems = url.query.map { hasSecretItem($0, redaction: redaction) } ?? false
        if !hidesCredentials && !hidesQueryItems {
            return url.absoluteString
        }
        guard var components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: false) else {
            return "(a URL that could not be parsed)"
        }
        let query = components.percentEncodedQuery
        let fragment = components.percentEncodedFragment
        let hasUser = components.percentEncodedUser != nil
        let hasPassword = components.percentEncodedPassword != nil
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        if redaction.redactsURLCredentials {
            components.percentEncodedUser = nil
            components.percentEncodedPassword = nil
        }
        var text = components.string ?? "(a URL that could not be parsed)"
        if redaction.redactsURLCredentials, hasUser || hasPassword, let slashes = text.range(of: "//") {
            let credentials = (hasUser ? redaction.marker : "") + (hasPassword ? ":" + redaction.marker : "") + "@"
            text.insert(contentsOf: credentials, at: slashes.upperBound)
        }
        if let query {
            text += "?" + redactedQuery(query, redaction: redaction)
        }
        if let fragment {
            text += "#" + fragment
        }
        return text
    }

    /// Whether a query names a secret item; cheaper than rebuilding the URL for the many
    /// queries that hold none.
    static func hasSecretItem(_ query: String, redaction: Redaction) -> Bool {
        guard !redaction.queryItemNames.isEmpty else { return false }
        return query.split(separator: "&").contains { piece in
            guard let equals = piece.firstIndex(of: "=") else { return false }
            let rawName = piece[..<equals]
            return redaction.isSecretQueryItem(rawName.removingPercentEncoding ?? String(rawName))
        }
    }

    /// A percent-encoded query with the values of secret items replaced by the marker.
    static func redactedQuery(_ query: String, redaction: Redaction) -> String {
        guard !redaction.queryItemNames.isEmpty else { return query }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { piece in
            guard let equals = piece.firstIndex(of: "=") else { return String(piece) }
            let rawName = piece[..<equals]
            let name = rawName.removingPercentEncoding ?? String(rawName)
            return redaction.isSecretQueryItem(name) ? "\(rawName)=\(redaction.marker)" : String(piece)
        }
        .joined(separator: "&")
    }

    /// The raw (still percent-encoded) values of the secret query items of `url`, and their
    /// decoded forms.
    static func secretQueryValues(of url: URL, redaction: Redaction) -> [String] {
        guard !redaction.queryItemNames.isEmpty,
            let query = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        else { return [] }
        return query.split(separator: "&").flatMap { piece -> [String] in
            guard let equals = piece.firstIndex(of: "=") else { return [] }
            let rawName = piece[..<equals]
            guard redaction.isSecretQueryItem(rawName.removingPercentEncoding ?? String(rawName)) else { return [] }
            let raw = String(piece[piece.index(after: equals)...])
            let decoded = raw.removingPercentEncoding ?? raw
            return [raw, decoded, decoded.replacingOccurrences(of: "+", with: " ")]
        }
    }
}
