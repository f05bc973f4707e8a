import Foundation

/// A response shows its status, its URL and its headers through ``Redaction/default``
/// (`Set-Cookie` and the other secret headers' values hidden, the URL redacted), and of its
/// value only its size (a body) or its type (anything decoded, which may hold a token).
extension Endpoint.Response: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `200 https://shop.test/me [Content-Type: application/json, Set-Cookie: <redacted>] (value: 42 bytes)`.
    public var description: String {
        var text = "\(status) \(shownURL)"
        if !headers.isEmpty {
            text += " " + Redaction.default.inLine(headers)
        }
        return text + " (value: \(shownValue))"
    }

    /// The description with the type's name: `Endpoint.Response(200 https://shop.test/me …)`.
    public var debugDescription: String {
        "Endpoint.Response(\(description))"
    }

    /// The status, the redacted URL, the headers (secret values hidden) and what the value is.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "status": status, "url": shownURL, "headers": Redaction.default.redact(headers),
                "value": shownValue,
            ],
            displayStyle: .struct
        )
    }

    /// The redacted URL, or a word for none.
    private var shownURL: String {
        url.map { Redaction.default.redact($0) } ?? "(no URL)"
    }

    /// A body's size, or the value's type.
    private var shownValue: String {
        if let data = value as? Data {
            return "\(data.count) bytes"
        }
        return "a value of type \(Value.self)"
    }
}
