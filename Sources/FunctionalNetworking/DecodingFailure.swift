import Foundation

/// A body that did not decode into the type asked for, naming the type and where in the
/// document decoding stopped.
///
/// ```swift
/// // Could not decode Product: the key "name" is missing at items[2].
/// ```
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
    /// The type that was being decoded, such as `"Product"`.
    public let typeName: String
    /// Where decoding stopped, such as `"items[2].name"`; empty at the top level.
    public let codingPath: String
    /// What went wrong there, in words.
    public let reason: String
    /// The first bytes of the body, for diagnosis.
    public let bodyPreview: String

    /// Creates a failure from its parts.
    public init(typeName: String, codingPath: String, reason: String, bodyPreview: String = "") {
        self.typeName = typeName
        self.codingPath = codingPath
        self.reason = reason
        self.bodyPreview = bodyPreview
    }

    /// A sentence naming the type, the path and the reason.
    public var description: String {
        let place = codingPath.isEmpty ? "at the top level" : "at \(codingPath)"
        return "Could not decode \(typeName): \(reason) \(place)."
    }

    /// Decodes `type` from `data`, turning any error into a `DecodingFailure`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, using decoder: JSONDecoder) throws -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(error, decoding: type, body: data)
        }
    }

    /// Describes a `DecodingError` met while decoding `type` from `body`.
    init(_ error: DecodingError, decoding type: Any.Type, body: Data) {
        let path: [any CodingKey]
        let reason: String
        switch error {
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            reason = "the key \"\(key.stringValue)\" is missing"
        case .valueNotFound(let expected, let context):
            path = context.codingPath
            reason = "a \(expected) was expected but the value is null"
        case .typeMismatch(let expected, let context):
            path = context.codingPath
            reason = "a \(expected) was expected but the value is of another type"
        case .dataCorrupted(let context):
            path = context.codingPath
            reason = body.isEmpty ? "the body is empty, not JSON" : "the data is not valid JSON (\(context.debugDescription))"
        @unknown default:
            path = []
            reason = String(describing: error)
        }
        self.init(
            typeName: String(describing: type),
            codingPath: Self.render(path),
            reason: reason,
            bodyPreview: String(decoding: body.prefix(200), as: UTF8.self)
        )
    }

    /// Renders a coding path as `items[2].name`.
    private static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
