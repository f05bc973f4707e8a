import Foundation

/// Why a declarative request could not be made. Nothing has been sent when one of these is
/// thrown.
///
/// ```swift
/// do {
///     let endpoint = try Endpoint.post("readings", from: lab).body(json: reading)
/// } catch DeclarativeError.bodyNotEncodable(let type, let reason) {
///     log("Cannot send a \(type): \(reason)")
/// }
/// ```
public enum DeclarativeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A JSON body could not be encoded, so no body was made.
    ///
    /// - `type`: the type of the value given as the body, e.g. `"Reading"` or `"JSONBody"`.
    /// - `reason`: what the encoder reported, in words, with where in the value it happened,
    ///   e.g. `the Double value at "sensor.celsius" is invalid: Unable to encode Double.nan
    ///   directly in JSON.`
    case bodyNotEncodable(type: String, reason: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .bodyNotEncodable(let type, let reason):
            "The request body of type \(type) cannot be encoded as JSON: \(reason)"
        }
    }

    /// The error for `error`, thrown while encoding a value of type `Body` as JSON.
    static func bodyNotEncodable<Body>(_ body: Body.Type, error: any Error) -> DeclarativeError {
        let reason: String
        switch error {
        case EncodingError.invalidValue(let value, let context):
            reason =
                "the \(type(of: value)) value at \(Self.describe(context.codingPath)) is invalid: "
                + context.debugDescription
        default:
            reason = String(describing: error)
        }
        return .bodyNotEncodable(type: String(describing: body), reason: reason)
    }

    /// A coding path in words: `"sensor.readings[2].celsius"`, or `the top level`.
    private static func describe(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.debugDescription
    }
}
