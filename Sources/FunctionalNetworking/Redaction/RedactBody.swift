import Foundation

/// Hides the values of secret-named fields in a body shown as text, for cURL output and the
/// body previews of errors: the members of a JSON document and the fields of a form
/// (`a=1&password=…`) whose names are secret query item names (``Redaction/queryItemNames``).
enum RedactBody {
    /// A JSON member, `"name": value`, where the value is a string (possibly cut off at the end
    /// of the text) or a bare scalar such as a number.
    private static let jsonMember: NSRegularExpression? = try? NSRegularExpression(
        pattern: #""((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*(?:"|$)|[^\s,}\]{\["][^\s,}\]]*)"#
    )

    /// `text` with the value of every secret-named JSON member or form field replaced by the
    /// marker: a JSON document when it starts with `{` or `[`, else a form.
    static func text(_ text: String, redaction: Redaction) -> String {
        guard !redaction.queryItemNames.isEmpty else { return text }
        let start = text.first { !$0.isWhitespace }
        if start == "{" || start == "[" {
            return json(text, redaction: redaction)
        }
        return RedactURL.redactedQuery(text, redaction: redaction)
    }

    /// The first `limit` bytes of `body` as text, with secret fields hidden; "…" marks a cut.
    ///
    /// The fields are hidden before the cut, so a value cut in half is hidden too.
    static func preview(of body: Data, limit: Int = 200, redaction: Redaction = .default) -> String {
        // Read a little more than is shown, so that a secret member that starts inside the
        // preview is recognised; a string value cut at the end of it is hidden as well.
        let read = String(decoding: body.prefix(limit * 8), as: UTF8.self)
        let hidden = text(read, redaction: redaction)
        let shown = String(decoding: Data(hidden.utf8).prefix(limit), as: UTF8.self)
        return shown + (body.count > limit || hidden.utf8.count > limit ? "…" : "")
    }

    private static func json(_ text: String, redaction: Redaction) -> String {
        guard let jsonMember else { return text }
        let whole = NSRange(text.startIndex..., in: text)
        var result = text
        // Replace from the end, so that earlier ranges stay valid.
        for match in jsonMember.matches(in: text, range: whole).reversed() {
            guard let name = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: result),
                redaction.isSecretQueryItem(String(text[name]))
            else { continue }
            result.replaceSubrange(value, with: "\"\(redaction.marker)\"")
        }
        return result
    }
}
