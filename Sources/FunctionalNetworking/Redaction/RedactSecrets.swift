import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects the secret values a request or response carries, so that text quoting them (an
/// error message, say) can be scrubbed by ``Redaction/scrub(_:secretsOf:response:)``.
enum RedactSecrets {
    /// The secrets in `request`'s headers and URL.
    static func of(request: URLRequest, redaction: Redaction) -> [String] {
        var secrets: [String] = []
        for (name, value) in request.allHTTPHeaderFields ?? [:] where redaction.isSecretHeader(name) {
            secrets += pieces(ofHeaderValue: value, named: name)
        }
        if let url = request.url {
            secrets += of(url: url, redaction: redaction)
        }
        return secrets
    }

    /// The secrets in `response`'s headers and URL.
    static func of(response: URLResponse?, redaction: Redaction) -> [String] {
        guard let response else { return [] }
        var secrets: [String] = []
        for (name, value) in headers(of: response) where redaction.isSecretHeader(name) {
            secrets += pieces(ofHeaderValue: value, named: name)
        }
        if let url = response.url {
            secrets += of(url: url, redaction: redaction)
        }
        return secrets
    }

    /// The URL's user and password (when hidden) and its secret query values.
    static func of(url: URL, redaction: Redaction) -> [String] {
        var secrets = RedactURL.secretQueryValues(of: url, redaction: redaction)
        if redaction.redactsURLCredentials,
            let components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: false)
        {
            secrets += [components.user, components.password, components.percentEncodedUser, components.percentEncodedPassword]
                .compactMap { $0 }
        }
        return secrets
    }

    /// A response's header fields as a list of pairs (empty for a response that is not HTTP).
    static func headers(of response: URLResponse) -> [(String, String)] {
        guard let http = response as? HTTPURLResponse else { return [] }
        return http.allHeaderFields
            .map { (String(describing: $0.key), String(describing: $0.value)) }
            .sorted { $0.0.lowercased() < $1.0.lowercased() }
    }

    /// The whole value, and the credentials inside it: the part after the scheme
    /// (`Bearer s3cr3t`), a Basic user and password, the value of each cookie (`Cookie`) or of
    /// each cookie set (`Set-Cookie`, whose attributes such as `Path` are not secret).
    static func pieces(ofHeaderValue value: String, named name: String) -> [String] {
        let value = value.trimmingCharacters(in: .whitespaces)
        var pieces = [value]
        if let space = value.firstIndex(of: " ") {
            let scheme = value[..<space].lowercased()
            let credentials = value[space...].trimmingCharacters(in: .whitespaces)
            pieces.append(credentials)
            if scheme == "basic", let data = Data(base64Encoded: credentials),
                let decoded = String(data: data, encoding: .utf8)
            {
                pieces.append(decoded)
                pieces += decoded.split(separator: ":", maxSplits: 1).map(String.init)
            }
        }
        switch name.lowercased() {
        case "cookie":
            pieces += value.split(separator: ";").compactMap(cookieValue)
        case "set-cookie":
            pieces += value.split(separator: ",").compactMap { $0.split(separator: ";").first }.compactMap(cookieValue)
        default:
            break
        }
        return pieces
    }

    /// The value of a `name=value` pair, or `nil` when there is no `=`.
    private static func cookieValue(_ pair: Substring) -> String? {
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        return pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    }
}
