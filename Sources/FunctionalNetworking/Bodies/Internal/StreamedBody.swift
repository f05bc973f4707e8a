import Foundation

/// A body read as the request is sent, rather than held as bytes.
enum StreamedBody: Sendable, Hashable {
    /// A multipart form, its files read from disk.
    case multipart(MultipartFormData)
    /// The contents of a file.
    case file(URL)
}
