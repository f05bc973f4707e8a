import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request's transfer as the session's delegate sees it: the body collected so far, the
/// limit on it, the promise its caller observes, and where its URLSession task stands.
///
/// Every member is guarded by the owning ``SessionDelegate``'s lock. The transfer ends once
/// (by the completion, the size limit, a challenge or a cancellation, whichever comes first),
/// so its promise is completed exactly once. It stays in the delegate's table until URLSession
/// delivers its task's completion, whenever the transfer ended: a transfer in the table is one
/// whose task has not completed, which is what deciding to cancel that task needs to know.
final class Transfer {
    typealias Outcome = Result<(Data, URLResponse), any Error>

    /// What the caller observes; completed once, by whoever ends the transfer, outside the lock.
    let promise: Promise<(Data, URLResponse)>
    /// Whether the transfer has ended.
    private var isEnded = false
    /// The most decoded body bytes to keep.
    let limit: Int
    /// The URL requested, for error texts.
    let url: URL?
    /// Where a 2xx body goes instead of memory, for a download.
    let download: DownloadTarget?
    /// Who watches the progress, if anybody.
    let progress: ProgressReporter?
    /// Where a 2xx body goes as it arrives, for a streamed call.
    let stream: StreamTarget?
    /// The channel the body is streaming into, once the response is known to be streamed: the
    /// waiter has had the response, and the transfer goes on until its task completes.
    var channel: StreamChannel?
    /// The body collected so far.
    var body = Data()
    /// The temporary file a download's 2xx body is written to, and its handle.
    var file: (url: URL, handle: FileHandle)?
    /// The counts reported as progress.
    var counts = TransferProgress()
    /// Whether the response is a redirect that the package may follow: its body is no part of
    /// the answer, so its bytes are not reported as progress.
    var isRedirect = false
    /// Whether somebody has decided to cancel this transfer's task.
    private var taskCancellationClaimed = false

    init(
        promise: Promise<(Data, URLResponse)>, limit: Int, url: URL?, download: DownloadTarget? = nil, progress: ProgressReporter? = nil,
        stream: StreamTarget? = nil
    ) {
        self.promise = promise
        self.limit = limit
        self.url = url
        self.download = download
        self.progress = progress
        self.stream = stream
    }

    /// Whether the transfer still runs: it has not ended, so its callbacks count.
    var isLive: Bool {
        !isEnded
    }

    /// Decides, once, that the URLSession task is to be cancelled: `true` for the first caller
    /// only. (Asked only while the transfer is in the table, that is before its task completed.)
    func claimTaskCancellation() -> Bool {
        guard !taskCancellationClaimed else { return false }
        taskCancellationClaimed = true
        return true
    }

    /// Ends the transfer (its body and file are let go); returns the promise to complete with
    /// the outcome, if the transfer had not ended before.
    func end() -> Promise<(Data, URLResponse)>? {
        body = Data()
        discardFile()
        guard !isEnded else { return nil }
        isEnded = true
        return promise
    }
}
