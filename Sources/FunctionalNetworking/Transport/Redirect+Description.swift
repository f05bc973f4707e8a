import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A redirect shows its status, hop, where it leads from and to (URLs redacted) and the
/// headers the next request would carry (secret values hidden), through
/// ``Redaction/default``; the `URLRequest`s and the response it holds are never dumped as
/// they are.
extension Redirect: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `302, hop 1: GET https://a.test/me → GET https://b.test/me (leaves the origin)`.
    public var description: String {
        let redaction = Redaction.default
        var text =
            "\(response.statusCode), hop \(hop): \(redaction.methodAndURL(of: request)) → "
            + redaction.methodAndURL(of: proposedRequest)
        var notes: [String] = []
        if isCrossOrigin {
            notes.append("leaves the origin")
        }
        if isInsecure {
            notes.append("https to http")
        }
        if carriesBody {
            notes.append("keeps the body")
        }
        if !notes.isEmpty {
            text += " (" + notes.joined(separator: ", ") + ")"
        }
        return text
    }

    /// The description with the type's name and the next request's headers, secret values
    /// hidden: `Redirect(302, hop 1: … [Accept: */*, Authorization: <redacted>])`.
    public var debugDescription: String {
        "Redirect(\(description) \(Redaction.default.inLine(Redaction.default.redactedHeaders(of: proposedRequest))))"
    }

    /// The status, the hop, the request and the proposed request as method and redacted URL,
    /// and the proposed request's headers with secret values hidden.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        return Mirror(
            self,
            children: [
                "status": response.statusCode, "hop": hop, "from": redaction.methodAndURL(of: request),
                "to": redaction.methodAndURL(of: proposedRequest),
                "headers": redaction.redactedHeaders(of: proposedRequest), "isCrossOrigin": isCrossOrigin,
            ],
            displayStyle: .struct
        )
    }
}

/// A redirect decision shows the request it follows with as its method and redacted URL, and
/// an error in the words of ``Redaction/describe(_:for:response:)``.
extension RedirectDecision: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `follow GET https://b.test/me`, `stop`, or `fail: …`.
    public var description: String {
        switch self {
        case .follow(let request): "follow \(Redaction.default.methodAndURL(of: request))"
        case .stop: "stop"
        case .fail(let error): "fail: \(Redaction.default.describe(error))"
        }
    }

    /// The description with the type's name: `RedirectDecision(follow GET https://b.test/me)`.
    public var debugDescription: String {
        "RedirectDecision(\(description))"
    }

    /// The followed request's method, redacted URL and headers (secret values hidden), or the
    /// error in words.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        return switch self {
        case .follow(let request):
            Mirror(
                self,
                children: ["follow": redaction.methodAndURL(of: request), "headers": redaction.redactedHeaders(of: request)],
                displayStyle: .enum
            )
        case .stop: Mirror(self, children: [:], displayStyle: .enum)
        case .fail(let error): Mirror(self, children: ["fail": redaction.describe(error)], displayStyle: .enum)
        }
    }
}
