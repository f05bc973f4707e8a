import Foundation

/// A multipart form shows its parts in order: a text field's name and value (`<redacted>` when
/// the name is secret, see ``Redaction/defaultQueryItemNames``), and a file's name, type and
/// size or path, never its bytes.
extension MultipartFormData: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The parts on one line:
    /// `[name: Ada, password: <redacted>, photo: file me.jpg (image/jpeg, 2048 bytes)]`.
    public var description: String {
        "[" + parts.map(\.description).joined(separator: ", ") + "]"
    }

    /// The description with the type's name: `MultipartFormData([name: Ada, password: <redacted>])`.
    public var debugDescription: String {
        "MultipartFormData(\(description))"
    }

    /// The boundary, and one child per part, each shown as its description.
    public var customMirror: Mirror {
        Mirror(self, children: ["boundary": boundary, "parts": parts], displayStyle: .struct)
    }
}

/// A part shows its name and, for a short UTF-8 text field, its value (`<redacted>` when the
/// name is secret); for anything else, its file name, type and size or path.
extension MultipartFormData.Part: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `name: Ada`, `password: <redacted>`, `photo: file me.jpg (image/jpeg, 2048 bytes)` or
    /// `report: file report.pdf (the file /tmp/report.pdf)`.
    public var description: String {
        "\(name): \(shownContent)"
    }

    /// The description with the type's name: `MultipartFormData.Part(password: <redacted>)`.
    public var debugDescription: String {
        "MultipartFormData.Part(\(description))"
    }

    /// The name, and what the content is as the description shows it.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "content": shownContent], displayStyle: .struct)
    }

    /// What the description shows after the name.
    private var shownContent: String {
        let redaction = Redaction.default
        if redaction.isSecretQueryItem(name) {
            return redaction.marker
        }
        let details = [contentType, content.description].compactMap { $0 }.joined(separator: ", ")
        if let filename {
            return "file \(filename) (\(details))"
        }
        if contentType == nil, case .data(let data) = content, data.count <= 200,
            let text = String(data: data, encoding: .utf8)
        {
            return text
        }
        return details
    }
}

/// A part's content shows its size or its file's path, never its bytes.
extension MultipartFormData.Part.Content: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `2048 bytes`, or `the file /tmp/report.pdf`.
    public var description: String {
        switch self {
        case .data(let data): "\(data.count) bytes"
        case .file(let url): "the file \(url.path)"
        }
    }

    /// The description with the case's name: `.data(2048 bytes)` or `.file(/tmp/report.pdf)`.
    public var debugDescription: String {
        switch self {
        case .data: ".data(\(description))"
        case .file(let url): ".file(\(url.path))"
        }
    }

    /// The size, or the file's path.
    public var customMirror: Mirror {
        switch self {
        case .data(let data): Mirror(self, children: ["bytes": data.count], displayStyle: .enum)
        case .file(let url): Mirror(self, children: ["file": url.path], displayStyle: .enum)
        }
    }
}
