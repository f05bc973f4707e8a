import Foundation

/// Where one download goes, and whether the session delivered it there.
final class DownloadTarget: @unchecked Sendable {
    let destination: URL
    let maximumSize: Int?
    private let lock = NSLock()
    private var delivered = false

    init(destination: URL, maximumSize: Int?) {
        self.destination = destination
        self.maximumSize = maximumSize
    }

    /// Whether the body reached `destination`.
    var isDelivered: Bool {
        lock.withLock { delivered }
    }

    func markDelivered() {
        lock.withLock { delivered = true }
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
