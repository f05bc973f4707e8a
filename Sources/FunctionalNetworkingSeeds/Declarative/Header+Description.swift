import Foundation
import FunctionalNetworking

/// A header line shows its name and its value, or `<redacted>` for a secret header
/// (`Authorization`, `Cookie`, API keys…).
extension Header: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Accept: application/json`, or `Authorization: <redacted>`.
    public var description: String {
        "\(name): \(shownValue)"
    }

    /// The description with the type's name: `Header(Authorization: <redacted>)`.
    public var debugDescription: String {
        "Header(\(description))"
    }

    /// The name, and the value or `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "value": shownValue], displayStyle: .struct)
    }

    /// The value, or the marker for a secret header.
    private var shownValue: String {
        var field = HTTPHeaders()
        field.add(name: name, value: value)
        return Redaction.default.redact(field).first { _ in true }?.value ?? ""
    }
}
