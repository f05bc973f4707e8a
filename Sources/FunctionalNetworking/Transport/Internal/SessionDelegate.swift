import Dispatch
import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of every session the package sends through: it collects each body under its
/// size limit, hands every redirect back to the caller (``PackageSession`` follows them by the
/// request's ``RedirectPolicy``), passes authentication challenges on HTTP statuses to the
/// caller as responses, and completes each request's promise exactly once.
///
/// Whether a URLSession task is cancelled is decided in one place, ``cancelTask(_:_:)``, under
/// the delegate's lock, by the ``Transfer``, which knows whether URLSession has delivered the
/// task's completion: a task is cancelled at most once, and never after its completion. A
/// transfer stays in the table until that completion arrives, so the answer is always there.
/// (On Linux, `cancel()` on a task that completes meanwhile can run its cancellation after the
/// session has forgotten the task, which ends the process; see ``ImmediateCacheLookup`` for
/// the case a URL cache opens.)
///
/// Cancellation never calls `URLSessionTask.cancel()` from inside a future's or a Swift task's
/// cancellation handler: the promise is rejected at once with `CancellationError`, and the
/// URLSession task is cancelled from ``cancelQueue``. (On Linux, `cancel()` waits on the session's queue while
/// the cancellation handler holds the Swift task's status lock; when that queue is completing
/// the same request, it waits for that lock in turn, and the process deadlocks.)
///
/// The URLSession task is created and resumed on the caller's thread, as URLSession's own async
/// methods do. (Moved to a dispatch queue, each of those calls that waits on a busy session's
/// queue holds a dispatch worker thread; with many sessions the workers run out before the
/// session queues, which need them too, can drain: the process deadlocked with 450 threads.)
///
/// On swift-corelibs-foundation the callbacks run on the session's own work queue (see
/// ``InlineDelegateQueue``), so nothing here may wait for it: tasks are cancelled and
/// challenges answered from ``cancelQueue``. On Apple platforms they run on the package
/// session's serial queue.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    /// Where URLSession tasks are cancelled (and, on Linux, challenges answered): never the
    /// thread of a cancellation handler, nor the session's work queue.
    private let cancelQueue = DispatchQueue(label: "FunctionalNetworking.cancel")

    /// Where URLSession tasks are made for requests started from inside a callback of a
    /// session (see ``start(_:on:limit:context:)``).
    private let startQueue = DispatchQueue(label: "FunctionalNetworking.start")

    /// Sends `request` on `session`: the future of its body (at most `limit` decoded bytes) and
    /// response, completed by the task's last callback (on Linux, from a global queue: see
    /// `complete(_:with:)`). A redirect comes back as the 3xx response itself. Cancelling the
    /// future cancels the URLSession task.
    ///
    /// The URLSession task is made and resumed on the calling thread, as URLSession's own
    /// methods do, except on a thread that runs a session's callbacks (an observer of another
    /// request's future, run as that request completes): there, on swift-corelibs-foundation,
    /// making a task waits for the very queue the thread is running, so it is made on
    /// ``startQueue`` instead.
    func start(_ request: URLRequest, on session: URLSession, limit: Int, context: RequestContext) -> Future<(Data, URLResponse)> {
        let promise = Promise<(Data, URLResponse)>()
        if SessionCallbackThread.isRunningCallback {
            startQueue.async { self.begin(request, on: session, limit: limit, context: context, promise: promise) }
        } else {
            begin(request, on: session, limit: limit, context: context, promise: promise)
        }
        return promise
    }

    private func begin(
        _ request: URLRequest, on session: URLSession, limit: Int, context: RequestContext, promise: Promise<(Data, URLResponse)>
    ) {
        guard promise.isPending else { return }  // cancelled before it began: nothing is made
        let task = session.dataTask(with: request)
        let transfer = Transfer(
            promise: promise, limit: limit, url: request.url, download: context.download, progress: context.progress, stream: context.stream
        )
        let id = task.taskIdentifier
        lock.withLock { transfers[id] = transfer }
        // A strong capture: the handler is dropped once the promise completes, and a weak one
        // would give every session delegate a side table that LeakSanitizer cannot follow.
        promise.onCancel { [self] in
            end(id, with: .failure(CancellationError()), cancelling: task)
        }
        // Cancelled meanwhile: the cancellation above has the task cancelled, which completes
        // it without a request; resumed, it would send one.
        if lock.withLock({ transfer.isLive }) {
            task.resume()
        }
    }

    /// Ends transfer `id` with `outcome` (if it has not ended), completes its promise, and,
    /// given `task`, has it cancelled (see ``cancelTask(_:_:)``).
    private func end(_ id: Int, with outcome: Transfer.Outcome, cancelling task: URLSessionTask?) {
        let promise = lock.withLock { transfers[id]?.end() }
        if let task {
            cancelTask(id, task)
        }
        if let promise {
            Self.complete(promise, with: outcome)
        }
    }

    /// Completes `promise` with `outcome`. On swift-corelibs-foundation, from a session callback,
    /// it does so from a global queue: the observers of the promise are the rest of the call (the
    /// composers above, the caller's own maps and decoding), and run where it completes, while
    /// the callback runs on the work queue every URLSession of the process shares. Run there,
    /// each would hold up every request of the process while it ran, and one that made a
    /// URLSession call that waits for that queue (`resume()`, `cancel()`, `dataTask(with:)`)
    /// would wait for itself. Elsewhere it completes on the calling thread.
    private static func complete(_ promise: Promise<(Data, URLResponse)>, with outcome: Transfer.Outcome) {
        #if canImport(FoundationNetworking)
        if SessionCallbackThread.isRunningCallback {
            DispatchQueue.global().async { promise.complete(with: outcome) }
            return
        }
        #endif
        promise.complete(with: outcome)
    }

    /// Cancels `task` off the calling thread, unless URLSession has delivered its completion (its
    /// transfer has left the table) or it is being cancelled already: the one place where that
    /// is decided.
    private func cancelTask(_ id: Int, _ task: URLSessionTask) {
        let claimed = lock.withLock { transfers[id]?.claimTaskCancellation() ?? false }
        guard claimed else { return }
        cancelQueue.async {
            // Asked again at the last moment: a completion delivered meanwhile ends it here.
            // (One that arrives after this answer is safe: URLSession checks the task's state on
            // its own queue, after the completion it is delivering.)
            guard self.lock.withLock({ self.transfers[id] != nil }) else { return }
            task.cancel()
        }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // A declared length over the limit fails before a byte of the body is read; with a
        // content coding the declared length is of the encoded bytes, so only the count of
        // decoded bytes as they arrive can decide.
        // A HEAD, 204 or 304 response declares the length of a body it does not carry.
        let http = response as? HTTPURLResponse
        let bodyless = dataTask.currentRequest?.httpMethod == "HEAD" || http?.statusCode == 204 || http?.statusCode == 304
        let encoded = http?.value(forHTTPHeaderField: "Content-Encoding") != nil
        let declared = !bodyless && !encoded && response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        // A download's 2xx body goes to a file, under the download's own limit; a stream's to
        // its reader, under the stream's.
        // A redirect's body is no part of the answer: it is not counted as progress.
        let redirect = http.map(Redirect.isFollowable) ?? false
        let success = (200..<300).contains(http?.statusCode ?? 200)
        let id = dataTask.taskIdentifier
        // Looked up, checked and its file or channel started under one lock: an ended
        // (cancelled) transfer never starts one, and a cancellation that comes after finds it.
        let started: Result<StreamChannel?, any Error>? = lock.withLock {
            guard let transfer = transfers[id], transfer.isLive else { return nil }
            let toFile = transfer.download != nil && success
            let toStream = transfer.stream != nil && success
            let limit =
                toFile
                ? (transfer.download?.maximumSize ?? .max) : toStream ? (transfer.stream?.limits.maximumSize ?? .max) : transfer.limit
            if let problem = WireCheck.problem(in: response, requested: transfer.url) {
                return .failure(problem)
            }
            if let declared, declared > limit {
                return .failure(tooLarge(limit: limit, transfer))
            }
            transfer.isRedirect = redirect
            transfer.counts.totalBytesToReceive = redirect ? nil : declared
            if toFile {
                do { try transfer.startFile() } catch { return .failure(error) }
            }
            if toStream, let target = transfer.stream {
                let channel = StreamChannel(limits: target.limits, url: transfer.url.map { Redaction.default.redact($0) } ?? "")
                transfer.channel = channel
                return .success(channel)
            }
            return .success(nil)
        }
        switch started {
        case nil:
            completionHandler(.cancel)
        case .failure(let failure):
            completionHandler(.cancel)
            end(id, with: .failure(failure), cancelling: dataTask)
        case .success(nil):
            completionHandler(.allow)
        case .success(let channel?):
            completionHandler(.allow)
            startStream(channel, of: dataTask, response: response)
        }
    }

    /// Hands `response` to the waiting caller at once, with `channel` attached to the call's
    /// stream target: the body goes on arriving into it.
    private func startStream(_ channel: StreamChannel, of task: URLSessionDataTask, response: URLResponse) {
        let id = task.taskIdentifier
        var controls = StreamChannel.Controls(cancel: { [weak self] in self?.cancelTask(id, task) })
        #if !canImport(FoundationNetworking)
        // swift-corelibs-foundation restarts a suspended transfer rather than pause it (see
        // StreamChannel for what happens there instead).
        controls.pause = { task.suspend() }
        controls.resume = { task.resume() }
        #endif
        channel.setControls(controls)
        let target: StreamTarget? = lock.withLock { transfers[id]?.stream }
        target?.attach(channel, for: response)
        end(id, with: .success((Data(), response)), cancelling: nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        var channel: StreamChannel?
        let outcome: (failure: (any Error)?, progress: (ProgressReporter, TransferProgress)?)? = lock.withLock {
            guard let transfer = transfers[id] else { return nil }
            if let streaming = transfer.channel {
                channel = streaming
                return nil
            }
            guard transfer.isLive else { return nil }
            if let file = transfer.file {
                let limit = transfer.download?.maximumSize ?? .max
                if transfer.counts.bytesReceived + data.count > limit {
                    return (tooLarge(limit: limit, transfer), nil)
                }
                do {
                    try file.handle.write(contentsOf: data)
                } catch {
                    let path = transfer.download?.destination.path ?? ""
                    return (TransportError.downloadFailed(path: path, reason: error.localizedDescription), nil)
                }
            } else {
                if transfer.body.count + data.count > transfer.limit {
                    return (tooLarge(limit: transfer.limit, transfer), nil)
                }
                transfer.body.append(data)
            }
            guard !transfer.isRedirect else { return (nil, nil) }
            transfer.counts.bytesReceived += data.count
            return (nil, transfer.progress.map { ($0, transfer.counts) })
        }
        if let channel {
            channel.deliver(data)
        } else if let failure = outcome?.failure {
            end(id, with: .failure(failure), cancelling: dataTask)
        } else if let (reporter, progress) = outcome?.progress {
            reporter.report(progress)
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        // A streamed body went to its reader: URLSession has not kept it whole, and must not.
        let streamed = lock.withLock { transfers[dataTask.taskIdentifier]?.channel != nil }
        completionHandler(streamed ? nil : proposedResponse)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The 3xx response comes back to PackageSession, which decides by the policy.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let failure = challenge.failureResponse as? HTTPURLResponse,
            failure.statusCode == 401 || failure.statusCode == 407
        else {
            // Server trust and client certificates: the platform's own handling, always.
            #if canImport(FoundationNetworking)
            // Answered off the session's work queue, where this runs (see InlineDelegateQueue):
            // the default handling may suspend, resume or cancel the task, which wait for it.
            cancelQueue.async { completionHandler(.performDefaultHandling, nil) }
            return
            #else
            return completionHandler(.performDefaultHandling, nil)
            #endif
        }
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation asks once the whole body has arrived and never completes a
        // task whose challenge is handled by default: deliver the response now.
        let id = task.taskIdentifier
        let outcome: Transfer.Outcome? = lock.withLock {
            transfers[id].flatMap { $0.isLive ? .success(($0.body, failure)) : nil }
        }
        if let outcome {
            end(id, with: outcome, cancelling: nil)
        }
        // Cancelling the challenge cancels the task, which waits for the session's work queue.
        cancelQueue.async { completionHandler(.cancelAuthenticationChallenge, nil) }
        #else
        // Declining every protection space makes the task complete with the 401 or 407.
        completionHandler(.rejectProtectionSpace, nil)
        #endif
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let report: (ProgressReporter, TransferProgress)? = lock.withLock {
            guard let transfer = transfers[task.taskIdentifier], transfer.isLive, let reporter = transfer.progress else { return nil }
            transfer.counts.bytesSent = Int(totalBytesSent)
            transfer.counts.totalBytesToSend = totalBytesExpectedToSend > 0 ? Int(totalBytesExpectedToSend) : nil
            return (reporter, transfer.counts)
        }
        if let (reporter, progress) = report {
            reporter.report(progress)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        var channel: StreamChannel?
        let finished: (Promise<(Data, URLResponse)>?, Transfer.Outcome, (ProgressReporter, TransferProgress)?)? = lock.withLock {
            // The task's last word: from here nothing cancels it, and its transfer leaves the table.
            guard let transfer = transfers.removeValue(forKey: task.taskIdentifier) else { return nil }
            channel = transfer.channel
            guard transfer.isLive else { return nil }
            let outcome = Self.outcome(of: task, error: error, transfer)
            var report: (ProgressReporter, TransferProgress)?
            if case .success = outcome, !transfer.isRedirect, let reporter = transfer.progress {
                // Finished: the total is what arrived.
                transfer.counts.totalBytesToReceive = transfer.counts.bytesReceived
                report = (reporter, transfer.counts)
            }
            return (transfer.end(), outcome, report)
        }
        if let channel {
            channel.finish(throwing: error.map { Self.streamFailure($0, of: task) })
        }
        guard let (promise, outcome, report) = finished else { return }
        if let (reporter, progress) = report {
            reporter.report(progress)
        }
        if let promise {
            Self.complete(promise, with: outcome)
        }
    }

    /// What a completed task gives: its error, or its response and body (a download's file moved
    /// into place).
    private static func outcome(of task: URLSessionTask, error: (any Error)?, _ transfer: Transfer) -> Transfer.Outcome {
        if let error {
            return .failure(redacted(error, afterResponse: task.response != nil))
        }
        guard let response = task.response else {
            return .failure(URLError(.badServerResponse))
        }
        do {
            try transfer.finishFile()
        } catch {
            return .failure(error)
        }
        return .success((transfer.body, response))
    }

    /// A platform `URLError` keeps its code and its words, but names the URL redacted: its
    /// description never quotes a password or a secret query value.
    ///
    /// A connection that closes after the response's head but before the whole body is
    /// `networkConnectionLost`, as Apple platforms report it (swift-corelibs-foundation reports
    /// `unknown`), so that retry policies treat it the same everywhere.
    static func redacted(_ error: any Error, afterResponse: Bool = false) -> any Error {
        guard let urlError = error as? URLError else { return error }
        var info: [String: Any] = [NSLocalizedDescriptionKey: urlError.localizedDescription]
        if let url = urlError.failingURL {
            info["NSErrorFailingURLStringKey"] = Redaction.default.redact(url)
        }
        let code: URLError.Code = urlError.code == .unknown && afterResponse ? .networkConnectionLost : urlError.code
        return URLError(code, userInfo: info)
    }

    /// `error`, which ended `task` while its body was streaming, as its reader sees it: a
    /// cancellation as `CancellationError`, a network failure as
    /// ``TransportError/networkFailure(_:url:timeout:attempts:)``, as before the response.
    private static func streamFailure(_ error: any Error, of task: URLSessionTask) -> any Error {
        guard let urlError = redacted(error, afterResponse: true) as? URLError else { return error }
        if urlError.code == .cancelled {
            return CancellationError()
        }
        guard let request = task.originalRequest else { return urlError }
        return PackageSession.networkFailure(urlError, sending: request)
    }

    private func tooLarge(limit: Int, _ transfer: Transfer) -> TransportError {
        .responseTooLarge(limit: limit, url: transfer.url.map { Redaction.default.redact($0) } ?? "")
    }
}
