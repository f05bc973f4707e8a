import Foundation
import FunctionalNetworking

/// A JSON body shows itself as JSON, with the values of secret-named members (`password`,
/// `client_secret`, `token`…) replaced by `<redacted>`.
extension JSONBody: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `{"password":"<redacted>","user":"ada"}` (keys sorted), or the key names when a value
    /// cannot be encoded.
    public var description: String {
        guard let data = try? Self.encoder.encode(self) else {
            return "(not encodable; keys: \(keys.map(\.name).joined(separator: ", ")))"
        }
        return Redaction.default.redactingFields(inBody: String(decoding: data, as: UTF8.self))
    }

    /// The description with the type's name: `JSONBody({"password":"<redacted>"})`.
    public var debugDescription: String {
        "JSONBody(\(description))"
    }

    /// One child per key, each shown as its description.
    public var customMirror: Mirror {
        Mirror(self, children: keys.map { (label: $0.name, value: $0.description as Any) }, displayStyle: .dictionary)
    }

    /// Encodes descriptions the same way every time.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// A key shows itself as a one-member JSON object, with a secret-named member's value
/// replaced by `<redacted>`.
extension Key: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `{"user":"ada"}`, or `{"password":"<redacted>"}`.
    public var description: String {
        JSONBody(keys: [self]).description
    }

    /// The description with the type's name: `Key({"password":"<redacted>"})`.
    public var debugDescription: String {
        "Key(\(description))"
    }

    /// The name, and the key as its description shows it.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "json": description], displayStyle: .struct)
    }
}
