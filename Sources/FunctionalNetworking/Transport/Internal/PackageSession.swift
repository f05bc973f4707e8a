import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession with the package's ``SessionDelegate``, and the redirect loop: every request
/// the package sends goes through one of these.
///
/// `URLSession.shared` cannot be given a delegate, so requests sent "through" it go through
/// ``shared``, a session built from its configuration. Any other URLSession gets one package
/// session built from its configuration at its first use, kept by ``PackageSessionRegistry``
/// for as long as that URLSession lives and by every transport made from it for as long as the
/// transport does; it is invalidated once both are gone.
final class PackageSession: Sendable {
    let session: URLSession
    private let delegate: SessionDelegate
    #if !canImport(FoundationNetworking)
    /// The serial queue the delegate's callbacks run on (an operation queue does not own its
    /// underlying queue). A queue of its own keeps a flood of callbacks from one transfer out
    /// of the global queues that every other session and timer of the process share.
    private let callbacks = DispatchQueue(label: "FunctionalNetworking.delegate", qos: .userInitiated)
    #endif

    init(configuration: URLSessionConfiguration) {
        let delegate = SessionDelegate()
        self.delegate = delegate
        #if canImport(FoundationNetworking)
        let queue: OperationQueue = InlineDelegateQueue()
        // The same cache, asked at once: a cancellation can then never outrun a task's start.
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.urlCache = configuration.urlCache.map(ImmediateCacheLookup.init)
        #else
        let queue = OperationQueue()
        queue.underlyingQueue = callbacks
        #endif
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The package session standing in for `URLSession.shared`.
    static let shared = PackageSession(configuration: URLSession.shared.configuration)

    /// Sends `request`, following redirects as `policy` decides: the future of the last
    /// response and its body, completed as ``SessionDelegate/start(_:on:limit:context:)`` says.
    func start(_ request: URLRequest, policy: TransportPolicy, context: RequestContext) -> Future<(Data, URLResponse)> {
        let limit = context.maximumResponseSize ?? policy.maximumResponseSize
        return send(request, hop: 1, limit: limit, policy: policy, context: context)
    }

    /// Sends `current`, hop `hop` of the request, and follows its redirect, if the policy does.
    private func send(
        _ current: URLRequest, hop: Int, limit: Int, policy: TransportPolicy, context: RequestContext
    ) -> Future<(Data, URLResponse)> {
        do {
            try WireCheck.request(current)  // every hop: a redirect policy may return any request
        } catch {
            return Future(error: error)
        }
        let sent: Future<(Data, URLResponse)>
        if current.hasStreamedBody {
            // A streamed body is read once: each hop and each retry sends a fresh copy, which a
            // task feeds while the request is sent.
            sent = Future { [self] in
                try await current.sendingFreshBody { [self] in
                    try await delegate.start($0, on: session, limit: limit, context: context).value
                }
            }
        } else {
            sent = delegate.start(current, on: session, limit: limit, context: context)
        }
        return
            sent
            .mapError { error in
                guard let urlError = error as? URLError, urlError.code != .cancelled else { return error }
                return Self.networkFailure(urlError, sending: current)
            }
            .flatMap { [self] data, response in
                guard let http = response as? HTTPURLResponse,
                    let redirect = Redirect(response: http, to: current, hop: hop, redaction: policy.redaction)
                else {
                    return Future(value: (data, response))
                }
                switch policy.redirects.decision(for: redirect) {
                case .follow(let next):
                    if redirect.isCrossOrigin, let dropped = Self.droppedCredentials(from: current, to: next, policy: policy) {
                        context.record?.noteDropped(dropped)
                    }
                    return send(next, hop: hop + 1, limit: limit, policy: policy, context: context)
                case .stop:
                    return Future(value: (data, response))
                case .fail(let error):
                    throw error
                }
            }
    }

    /// `error`, which the network gave for `request`, as the ``TransportError`` that says it in
    /// words: the request's redacted URL, and its time limit when it timed out.
    static func networkFailure(_ error: URLError, sending request: URLRequest) -> TransportError {
        let url = (request.url ?? error.failingURL).map { Redaction.default.redact($0) } ?? "(no URL)"
        let timeout: Duration? =
            error.code == .timedOut && request.timeoutInterval > 0
            ? .milliseconds(Int64((request.timeoutInterval * 1000).rounded())) : nil
        return .networkFailure(error, url: url, timeout: timeout)
    }

    /// The credentials `request` carried that `next`, the request a redirect to another origin
    /// sends, does not: `nil` when it dropped none.
    static func droppedCredentials(from request: URLRequest, to next: URLRequest, policy: TransportPolicy) -> CredentialsDroppedByRedirect?
    {
        let kept = Set((next.allHTTPHeaderFields ?? [:]).keys.map { $0.lowercased() })
        let names = (request.allHTTPHeaderFields ?? [:]).keys
            .filter { policy.redaction.carriesCredential(lowercased: $0.lowercased()) && !kept.contains($0.lowercased()) }
            .sorted()
        guard !names.isEmpty else { return nil }
        return CredentialsDroppedByRedirect(
            from: RedirectPolicy.origin(of: request.url), to: RedirectPolicy.origin(of: next.url), headerNames: names
        )
    }
}
