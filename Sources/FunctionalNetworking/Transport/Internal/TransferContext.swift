import Foundation

/// Where one download goes, and the complete file the session wrote for it, handed from the
/// session's delegate to the caller.
///
/// The caller moves the file into place only once its call has succeeded, so that a call that
/// fails or is cancelled (even as its body completes) leaves no file. Whichever of the two comes
/// second, the delegate handing the file over (``finish(with:)``) or the caller leaving
/// (``abandon()``), removes it.
final class DownloadTarget: @unchecked Sendable {
    let destination: URL
    let maximumSize: Int?
    private let lock = NSLock()
    private var finished: URL?
    private var abandoned = false

    init(destination: URL, maximumSize: Int?) {
        self.destination = destination
        self.maximumSize = maximumSize
    }

    /// Hands over `temporary`, the whole body; removes it at once if the caller has left.
    func finish(with temporary: URL) {
        let dropped: URL? = lock.withLock {
            guard !abandoned else { return temporary }
            defer { finished = temporary }
            return finished  // an earlier attempt's, never taken
        }
        if let dropped {
            try? FileManager.default.removeItem(at: dropped)
        }
    }

    /// The file the session wrote, for the caller to move into place: `nil` when another
    /// transport answered in memory.
    func takeFinished() -> URL? {
        lock.withLock {
            defer { finished = nil }
            return finished
        }
    }

    /// The caller leaves without the file: a file handed over is removed, and one handed over
    /// later will be.
    func abandon() {
        let left: URL? = lock.withLock {
            abandoned = true
            defer { finished = nil }
            return finished
        }
        if let left {
            try? FileManager.default.removeItem(at: left)
        }
    }
}

/// Passes progress to the observer with counts that never go back within the watched call.
final class ProgressReporter: @unchecked Sendable {
    private let observer: @Sendable (TransferProgress) -> Void
    private let lock = NSLock()
    private var last = TransferProgress()

    init(_ observer: @escaping @Sendable (TransferProgress) -> Void) {
        self.observer = observer
    }

    func report(_ progress: TransferProgress) {
        let next: TransferProgress? = lock.withLock {
            var merged = progress
            merged.bytesSent = max(last.bytesSent, progress.bytesSent)
            merged.bytesReceived = max(last.bytesReceived, progress.bytesReceived)
            guard merged != last else { return nil }
            last = merged
            return merged
        }
        if let next { observer(next) }
    }
}
