/// A form shows its field names and values in order, with the value of every secret-named
/// field (`password`, `client_secret`, `token`…; see ``Redaction/defaultQueryItemNames``)
/// replaced by `<redacted>`, in its description, its debug description and its mirror.
extension FormBody: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The fields on one line, secret values hidden:
    /// `[grant_type: password, username: ada, password: <redacted>]`.
    public var description: String {
        "[" + fields.map(\.description).joined(separator: ", ") + "]"
    }

    /// The description with the type's name: `FormBody([username: ada, password: <redacted>])`.
    public var debugDescription: String {
        "FormBody(\(description))"
    }

    /// One child per field, in order, each showing its name and its value or `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: fields.map { (label: nil, value: $0 as Any) }, displayStyle: .collection)
    }
}

/// A field shows its name and its value, or `<redacted>` when the name is secret.
extension FormBody.Field: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `username: ada`, or `password: <redacted>`.
    public var description: String {
        "\(name): \(shownValue)"
    }

    /// The description with the type's name: `FormBody.Field(password: <redacted>)`.
    public var debugDescription: String {
        "FormBody.Field(\(description))"
    }

    /// The name, and the value or `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "value": shownValue], displayStyle: .struct)
    }

    /// The value, or the marker when the name is secret.
    private var shownValue: String {
        Redaction.default.redactedValue(value, ofField: name)
    }
}
