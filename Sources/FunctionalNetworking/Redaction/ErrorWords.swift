import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Describes an error in words that are safe to print: a `URLError` by its code and meaning
/// (never the `NSError` dump of its user info, which quotes the failing URL as is), and every
/// URL quoted in any other error's text redacted.
enum ErrorWords {
    /// `error` in one line, with URLs redacted by `redaction`.
    static func of(_ error: any Error, redaction: Redaction = .default, requestURL: URL? = nil) -> String {
        switch error {
        case is CancellationError:
            return "cancelled"
        case let error as URLError:
            var text = "URLError \(error.code.rawValue) (\(meaning(of: error.code)))"
            if let url = error.failingURL ?? requestURL {
                text += " for \(redaction.redact(url))"
            } else if let written = error.userInfo["NSErrorFailingURLStringKey"] as? String {
                // The transport's errors carry the failing URL as text, already redacted.
                text += " for " + (written.contains(redaction.marker) ? written : scrubbingURLs(in: written, redaction: redaction))
            }
            return text
        case let error as HTTPStatusError:
            return error.description  // its URL is shown without user, password or query values
        default:
            return scrubbingURLs(in: String(describing: error), redaction: redaction)
        }
    }

    /// A URL written in text: a scheme, `://`, then anything up to a space or a quote.
    private static let urlPattern: NSRegularExpression? = try? NSRegularExpression(
        pattern: #"[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>]+"#
    )

    /// `text` with every URL in it redacted by `redaction` (a URL that does not parse is
    /// replaced by "(a URL)"); the punctuation that ends a sentence or a list stays outside.
    static func scrubbingURLs(in text: String, redaction: Redaction = .default) -> String {
        guard let urlPattern, text.contains("://") else { return text }
        var result = text
        let matches = urlPattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        for match in matches.reversed() {
            guard var range = Range(match.range, in: result) else { continue }
            while let last = result[range].last, ",.;:)}]".contains(last) {
                range = range.lowerBound..<result.index(before: range.upperBound)
            }
            let written = String(result[range])
            guard hasSecrets(written, redaction: redaction) else { continue }  // shown as written
            let redacted = URL(string: written).map(redaction.redact) ?? "(a URL)"
            result.replaceSubrange(range, with: redacted)
        }
        return result
    }

    /// Whether a URL written as text has a user or password, or a secret query item.
    private static func hasSecrets(_ written: String, redaction: Redaction) -> Bool {
        let beforeFragment = written.prefix { $0 != "#" }
        let query = beforeFragment.drop { $0 != "?" }.dropFirst()
        let authority =
            beforeFragment.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false)
            .dropFirst(2).first ?? ""
        return (redaction.redactsURLCredentials && authority.contains("@"))
            || RedactURL.hasSecretItem(String(query), redaction: redaction)
    }

    /// What a URLError code means, in a few words.
    static func meaning(of code: URLError.Code) -> String {
        switch code {
        case .cancelled: "cancelled"
        case .timedOut: "the request timed out"
        case .cannotFindHost: "cannot find the host: no address for its name"
        case .dnsLookupFailed: "the host name could not be looked up (DNS failed)"
        case .cannotConnectToHost: "could not connect to the server"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "not connected to the internet"
        case .badURL, .unsupportedURL: "the URL cannot be used"
        case .badServerResponse, .cannotParseResponse: "the server's response could not be read"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: "the redirects could not be followed"
        case .secureConnectionFailed: "TLS failed: a secure connection could not be made"
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
            "TLS failed: the server's certificate is not trusted"
        case .serverCertificateHasBadDate: "TLS failed: the server's certificate has expired"
        case .serverCertificateNotYetValid: "TLS failed: the server's certificate is not valid yet"
        case .clientCertificateRejected, .clientCertificateRequired:
            "TLS failed: the server wants a client certificate it accepts"
        case .userAuthenticationRequired, .userCancelledAuthentication: "authentication is required"
        case .dataLengthExceedsMaximum: "the response is too large"
        case .cannotDecodeContentData, .cannotDecodeRawData: "the response could not be decoded"
        case .zeroByteResource: "the response is empty"
        case .resourceUnavailable, .fileDoesNotExist: "the resource is unavailable"
        default: "a network error"
        }
    }
}
