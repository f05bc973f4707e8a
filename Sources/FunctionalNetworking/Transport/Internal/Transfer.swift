import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request's transfer as the session's delegate sees it: the body collected so far, the
/// limit on it, and the continuation of the task that waits for it.
///
/// Every member is guarded by the owning ``SessionDelegate``'s lock. The transfer ends once
/// (by the completion, the size limit, a challenge or a cancellation, whichever comes first),
/// so the waiting task resumes exactly once.
final class Transfer {
    typealias Outcome = Result<(Data, URLResponse), any Error>
    typealias Continuation = CheckedContinuation<(Data, URLResponse), any Error>

    enum State {
        /// Created; nobody waits yet.
        case idle
        /// A task waits on the continuation.
        case running(Continuation)
        /// Ended before anybody waited; the waiter takes the outcome at once.
        case endedEarly(Outcome)
        /// Ended and delivered.
        case ended
    }

    /// The most decoded body bytes to keep.
    let limit: Int
    /// The URL requested, for error texts.
    let url: URL?
    /// Where a 2xx body goes instead of memory, for a download.
    let download: DownloadTarget?
    /// Who watches the progress, if anybody.
    let progress: ProgressReporter?
    var state = State.idle
    var body = Data()
    /// The temporary file a download's 2xx body is written to, and its handle.
    var file: (url: URL, handle: FileHandle)?
    /// The counts reported as progress.
    var counts = TransferProgress()

    init(limit: Int, url: URL?, download: DownloadTarget? = nil, progress: ProgressReporter? = nil) {
        self.limit = limit
        self.url = url
        self.download = download
        self.progress = progress
    }

    /// Creates the temporary file beside the download's destination.
    func startFile() throws(TransportError) {
        guard let download else { return }
        let directory = download.destination.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(download.destination.lastPathComponent).\(UUID().uuidString).download")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: temporary)
        else {
            throw .downloadFailed(path: download.destination.path, reason: "cannot create a file in \(directory.path)")
        }
        file = (temporary, handle)
    }

    /// Moves the complete download to its destination, replacing what was there.
    func finishFile() throws(TransportError) {
        guard let download, let file else { return }
        self.file = nil
        do {
            try file.handle.close()
            // rename(2) replaces the destination in one step: never half a file, never none.
            guard rename(file.url.path, download.destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
            download.markDelivered()
        } catch {
            try? FileManager.default.removeItem(at: file.url)
            throw .downloadFailed(path: download.destination.path, reason: error.localizedDescription)
        }
    }

    /// Closes and removes an unfinished download's file.
    private func discardFile() {
        guard let file else { return }
        self.file = nil
        try? file.handle.close()
        try? FileManager.default.removeItem(at: file.url)
    }

    /// Installs the waiter's continuation; returns the outcome to resume it with at once when
    /// the transfer has already ended.
    func wait(with continuation: Continuation) -> Outcome? {
        switch state {
        case .idle:
            state = .running(continuation)
            return nil
        case .endedEarly(let outcome):
            state = .ended
            return outcome
        case .running, .ended:
            preconditionFailure("A transfer is awaited once.")
        }
    }

    /// Ends the transfer with `outcome`; returns the continuation to resume, if one waits and
    /// the transfer had not ended before.
    func end(with outcome: Outcome) -> Continuation? {
        body = Data()
        discardFile()
        switch state {
        case .idle:
            state = .endedEarly(outcome)
            return nil
        case .running(let continuation):
            state = .ended
            return continuation
        case .endedEarly, .ended:
            return nil
        }
    }
}
