import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pieces the descriptions and mirrors of the package's values are built from, so that
/// `"\(value)"`, `String(reflecting:)` and `dump` hide what logs and errors hide, through this
/// one ``Redaction``.
extension Redaction {
    /// `headers` on one line, `[Accept: */*, Authorization: <redacted>]`, in order, with
    /// every secret value replaced by ``marker``.
    func inLine(_ headers: HTTPHeaders) -> String {
        "[" + redact(headers).map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }

    /// The children of a mirror of `headers`: one per field, labelled with its name, whose
    /// value is the field's value or ``marker``.
    func mirrorChildren(of headers: HTTPHeaders) -> [Mirror.Child] {
        redact(headers).map { (label: $0.name, value: $0.value as Any) }
    }

    /// `value` as it may be shown for the form field, JSON member or query item `name`: itself,
    /// or ``marker`` when the name is secret (see ``defaultQueryItemNames``).
    package func redactedValue(_ value: String, ofField name: String) -> String {
        isSecretQueryItem(name) ? marker : value
    }

    /// A JSON document or a form written as text, with the values of its secret-named members
    /// or fields replaced by ``marker``: the rule of the body previews and cURL output.
    package func redactingFields(inBody text: String) -> String {
        RedactBody.text(text, redaction: self)
    }

    /// Query items written as text, `name=value&…`, with secret values replaced by ``marker``.
    func inLine(_ queryItems: [URLQueryItem]) -> String {
        let written = queryItems.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        return RedactURL.redactedQuery(written.joined(separator: "&"), redaction: self)
    }

    /// What a body is, never its bytes: `42 bytes`, `a multipart form: name, avatar (file
    /// a.png)` or `the file /tmp/upload.bin`; `nil` when there is none.
    func describeBody(_ body: Data?, streamed: StreamedBody?) -> String? {
        switch streamed {
        case .multipart(let form):
            return "a multipart form: "
                + form.parts.map { part in part.filename.map { "\(part.name) (file \($0))" } ?? part.name }
                .joined(separator: ", ")
        case .file(let url):
            return "the file \(url.path)"
        case nil:
            guard let body, !body.isEmpty else { return nil }
            return "\(body.count) bytes"
        }
    }
}

extension Redaction {
    /// The method and the redacted URL of `request`: `GET https://shop.test/a?token=<redacted>`.
    func methodAndURL(of request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url.map(redact) ?? "(no URL)")"
    }

    /// The headers of `request`, sorted by name, with secret values replaced by ``marker``.
    func redactedHeaders(of request: URLRequest) -> HTTPHeaders {
        let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        return redact(HTTPHeaders(fields.map { ($0.key, $0.value) }))
    }
}
