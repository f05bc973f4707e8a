/// A header list shows its names and values in order, with the value of every secret header
/// (`Authorization`, `Cookie`, `Set-Cookie`, API keys…; see ``Redaction/defaultHeaderNames``)
/// replaced by `<redacted>`, in its description, its debug description and its mirror, so
/// neither `print`, `dump` nor a failed test shows a credential.
extension HTTPHeaders: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The fields on one line, secret values hidden: `[Accept: */*, Authorization: <redacted>]`.
    public var description: String {
        Redaction.default.inLine(self)
    }

    /// The fields with the type's name, secret values hidden:
    /// `HTTPHeaders([Accept: */*, Authorization: <redacted>])`.
    public var debugDescription: String {
        "HTTPHeaders(\(description))"
    }

    /// One child per field, labelled with its name, whose value is the field's value or
    /// `<redacted>`, so that `dump` hides what the description hides.
    public var customMirror: Mirror {
        Mirror(self, children: Redaction.default.mirrorChildren(of: self), displayStyle: .dictionary)
    }
}
