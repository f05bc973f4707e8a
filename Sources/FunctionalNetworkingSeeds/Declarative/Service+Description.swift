import Foundation
import FunctionalNetworking

/// A service shows where its endpoints start and the headers they start with, through
/// `Redaction.default`: the base URL's user, password and secret query values, and the
/// values of secret headers, are hidden.
extension Service: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `https://shop.test/v1/admin [Accept: application/json, Authorization: <redacted>]`.
    public var description: String {
        let path = pathComponents.isEmpty ? "" : "/" + pathComponents.joined(separator: "/")
        return "\(destination)\(path)" + (defaultHeaders.isEmpty ? "" : " \(defaultHeaders)")
    }

    /// The description with the type's name: `Service(https://shop.test/v1 [Authorization: <redacted>])`.
    public var debugDescription: String {
        "Service(\(description))"
    }

    /// The destination (redacted), the path prefix and the default headers (secret values
    /// hidden); the closures are left out.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "destination": destination.description, "pathComponents": pathComponents,
                "defaultHeaders": Redaction.default.redact(defaultHeaders),
            ],
            displayStyle: .struct
        )
    }
}
