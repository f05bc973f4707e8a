import Foundation

/// A piece of a streamed body: bytes in memory, or a whole file read as it is sent.
enum BodySegment: Sendable, Hashable {
    case bytes(Data)
    case file(URL)

    /// Throws unless every file among `segments` is a readable regular file.
    static func check(_ segments: [BodySegment]) throws(BodyError) {
        for case .file(let url) in segments {
            _ = try size(ofFileAt: url)
        }
    }

    /// The size of the regular file at `url`.
    static func size(ofFileAt url: URL) throws(BodyError) -> Int {
        guard url.isFileURL else { throw .unreadableFile(url.absoluteString, reason: "it is not a file URL") }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw .unreadableFile(url.path, reason: "it does not exist or cannot be read")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .unreadableFile(url.path, reason: "it is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw .unreadableFile(url.path, reason: "it cannot be read")
        }
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }
}
