import Foundation

/// Why a request body could not be made.
public enum BodyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file meant for the body could not be read: its path and the reason.
    case unreadableFile(String, reason: String)

    /// A value given as a JSON body could not be encoded, so no body was made: the value's
    /// type, e.g. `"Reading"`, and what the encoder reported, in words, with where in the value
    /// it happened, e.g. `the Double value at "sensor.celsius" is invalid: Unable to encode
    /// Double.nan directly in JSON.` The package never writes the value itself into it.
    case notEncodable(type: String, reason: String)

    /// The error in words.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "The file \(path) cannot be sent as part of the request body: \(reason)."
        case .notEncodable(let type, let reason):
            "The request body of type \(type) cannot be encoded as JSON: \(reason)"
        }
    }
}

extension BodyError: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
