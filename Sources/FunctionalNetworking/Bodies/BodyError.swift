import Foundation

/// Why a request body could not be made.
public enum BodyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file meant for the body could not be read: its path and the reason.
    case unreadableFile(String, reason: String)

    /// The error in words.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "The file \(path) cannot be sent as part of the request body: \(reason)."
        }
    }
}
