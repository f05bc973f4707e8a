import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The request as a `curl` command line for a POSIX shell, with secrets redacted.
    ///
    /// ```swift
    /// var request = URLRequest(url: URL(string: "https://shop.test/orders?token=s3cr3t")!)
    /// request.httpMethod = "POST"
    /// request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
    /// request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    /// request.httpBody = Data(#"{"note":"it's"}"#.utf8)
    /// print(request.curlCommand())
    /// // curl -X 'POST' -H 'Authorization: <redacted>' -H 'Content-Type: application/json'
    /// //   --data-binary '{"note":"it'\''s"}' 'https://shop.test/orders?token=<redacted>'
    /// ```
    ///
    /// (one line; wrapped here). Every value is single-quoted, a `'` inside becoming `'\''`, so
    /// spaces, `$`, backticks and newlines reach curl unchanged. The method is given with `-X`
    /// unless it is `GET` without a body (`HEAD` becomes `--head`); headers are sorted by name,
    /// one `-H` each (an empty value is written `-H 'Name;'`, curl's way of sending it). A UTF-8
    /// body is passed with `--data-binary` (`--data-raw` when it starts with `@`, which curl
    /// would read as a file name); any other body is written as octal escapes that `printf`
    /// pipes into `--data-binary @-`, so the bytes arrive exactly. A ``MultipartFormData`` body
    /// is written as curl's form options: `--form-string 'name=value'` for a text field (its
    /// value hidden when the name is secret), `-F 'name=@/path;filename="…";type=…'` for a file
    /// on disk, and the byte count for a file in memory; any other body stream cannot be shown
    /// and is left out. `--globoff` is added when the URL holds `[]{}`.
    ///
    /// A text body shows the values of secret-named JSON members and form fields as
    /// ``Redaction/marker`` (`{"user":"ada","password":"<redacted>"}`, `password=<redacted>`;
    /// see ``Redaction`` for the names). Pass ``Redaction/none`` to get a command that sends
    /// exactly this request.
    ///
    /// - Parameter redaction: What to hide; ``Redaction/default`` by default.
    /// - Returns: The command, ready for `sh -c`.
    public func curlCommand(redaction: Redaction = .default) -> String {
        var arguments = ["curl"]
        var input: String?
        let method = httpMethod ?? "GET"
        if method == "HEAD" && httpBody == nil {
            arguments.append("--head")
        } else if method != "GET" || httpBody != nil {
            arguments += ["-X", CURLQuoting.quoted(method)]
        }
        let headers = (allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        for (name, value) in headers {
            let shown = redaction.redactedValue(value, ofHeader: name)
            arguments += ["-H", CURLQuoting.quoted(shown.isEmpty ? "\(name);" : "\(name): \(shown)")]
        }
        if let form = StreamedBody.of(httpBodyStream)?.form {
            arguments += CURLQuoting.formArguments(form, redaction: redaction)
        } else if let body = httpBody {
            if let text = String(data: body, encoding: .utf8), !text.contains("\0") {
                let shown = RedactBody.text(text, redaction: redaction)
                arguments += [shown.hasPrefix("@") ? "--data-raw" : "--data-binary", CURLQuoting.quoted(shown)]
            } else {
                input = "printf " + CURLQuoting.quoted(CURLQuoting.printfFormat(of: body)) + " | "
                arguments += ["--data-binary", "@-"]
            }
        }
        let url = self.url.map(redaction.redact) ?? ""
        if url.contains(where: { "[]{}".contains($0) }) {
            arguments.append("--globoff")
        }
        arguments.append(CURLQuoting.quoted(url))
        return (input ?? "") + arguments.joined(separator: " ")
    }
}

/// Quoting for a POSIX shell.
private enum CURLQuoting {
    /// curl's form options for `form`, one pair of arguments per part.
    static func formArguments(_ form: MultipartFormData, redaction: Redaction) -> [String] {
        form.parts.flatMap { part -> [String] in
            let name = part.name.replacingOccurrences(of: "=", with: "%3D")
            let filename = part.filename.map { #";filename=""# + $0.replacingOccurrences(of: "\"", with: #"\""#) + "\"" } ?? ""
            let type = part.contentType.map { ";type=" + $0 } ?? ""
            switch part.content {
            case .file(let url):
                return ["-F", quoted("\(name)=@\(url.path)\(filename)\(type)")]
            case .data(let data) where part.filename == nil:
                let text = String(data: data, encoding: .utf8) ?? "(\(data.count) bytes)"
                let shown = redaction.isSecretQueryItem(part.name) ? redaction.marker : text
                return ["--form-string", quoted("\(name)=\(shown)")]
            case .data(let data):
                return ["--form-string", quoted("\(name)=(\(data.count) bytes in memory\(filename)\(type))")]
            }
        }
    }

    /// `text` in single quotes, each `'` written as `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A `printf` format that writes `data` exactly: printable ASCII as itself (`%` and `\`
    /// doubled as printf wants), every other byte as a three-digit octal escape.
    static func printfFormat(of data: Data) -> String {
        var format = ""
        for byte in data {
            switch byte {
            case UInt8(ascii: "%"): format += "%%"
            case UInt8(ascii: "\\"): format += #"\\"#
            case 0x20...0x7E: format.append(Character(Unicode.Scalar(byte)))
            default:
                let octal = String(byte, radix: 8)
                format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return format
    }
}
