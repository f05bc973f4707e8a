import Foundation
import FunctionalNetworking

/// A query line shows its name and its value, or `<redacted>` for a secret name
/// (`access_token`, `api_key`, `password`…).
extension Query: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `page=2`, `access_token=<redacted>`, or `verbose` for a flag.
    public var description: String {
        shownValue.map { "\(name)=\($0)" } ?? name
    }

    /// The description with the type's name: `Query(access_token=<redacted>)`.
    public var debugDescription: String {
        "Query(\(description))"
    }

    /// The name, and the value or `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "value": shownValue as Any], displayStyle: .struct)
    }

    /// The value, or the marker for a secret name.
    private var shownValue: String? {
        value.map { Redaction.default.redactedValue($0, ofField: name) }
    }
}
