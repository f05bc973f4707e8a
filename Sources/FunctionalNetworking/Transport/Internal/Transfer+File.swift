import Foundation

/// A download's file: written beside its destination under a temporary name, moved into place
/// when complete.
extension Transfer {
    /// The longest file name most file systems take, in bytes (`NAME_MAX`).
    static let maximumFileNameBytes = 255

    /// The temporary name for a download to `destination`: hidden, unique, and within the
    /// file-name limit whatever the destination's name (the name is shortened, at a character
    /// boundary, to leave room for the unique part).
    static func temporaryName(for destination: URL) -> String {
        let suffix = ".\(UUID().uuidString).download"
        let room = maximumFileNameBytes - 1 - suffix.utf8.count
        var name = Substring(destination.lastPathComponent)
        while name.utf8.count > room {
            name = name.dropLast()
        }
        return "." + name + suffix
    }

    /// Creates the temporary file beside the download's destination.
    func startFile() throws(TransportError) {
        guard let download else { return }
        let directory = download.destination.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(Self.temporaryName(for: download.destination))
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: temporary)
        else {
            throw .downloadFailed(path: download.destination.path, reason: "cannot create a file in \(directory.path)")
        }
        file = (temporary, handle)
    }

    /// Closes the complete download's file and hands it to its target; the caller moves it into
    /// place once its call has succeeded (see ``DownloadTarget``).
    func finishFile() throws(TransportError) {
        guard let download, let file else { return }
        self.file = nil
        do {
            try file.handle.close()
            download.finish(with: file.url)
        } catch {
            try? FileManager.default.removeItem(at: file.url)
            throw .downloadFailed(path: download.destination.path, reason: error.localizedDescription)
        }
    }

    /// Moves the complete file `temporary` to `destination` in one step (rename(2): never half a
    /// file, never none), replacing what was there; a file that is replaced keeps its
    /// permissions (a 0600 file stays 0600).
    static func moveIntoPlace(_ temporary: URL, at destination: URL) throws {
        var existing = stat()
        if stat(destination.path, &existing) == 0 {
            guard chmod(temporary.path, existing.st_mode & 0o7777) == 0 else { throw posixError() }
        }
        guard rename(temporary.path, destination.path) == 0 else { throw posixError() }
    }

    /// Closes and removes an unfinished download's file.
    func discardFile() {
        guard let file else { return }
        self.file = nil
        try? file.handle.close()
        try? FileManager.default.removeItem(at: file.url)
    }

    private static func posixError() -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
    }
}
