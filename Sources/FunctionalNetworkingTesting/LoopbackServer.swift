import Foundation

/// A real HTTP/1.1 server on 127.0.0.1 for tests, in the spirit of OkHttp's MockWebServer.
///
/// The server listens on an ephemeral loopback port as soon as `init` returns and
/// runs until ``stop()`` (or `deinit`). Script it with a FIFO queue of responses
/// (``enqueue(_:)``), a ``dispatcher`` closure for routing, or both: a queued
/// response is used first, then the dispatcher, and with neither the server
/// answers `404` with a short text body saying nothing was enqueued.
///
/// ```swift
/// let server = try LoopbackServer()
/// defer { server.stop() }
/// server.enqueue(.json(#"{"ok": true}"#))
///
/// let (data, _) = try await URLSession.shared.data(from: server.url(for: "/status"))
///
/// let request = try #require(await server.takeRequest())
/// #expect(request.path == "/status")
/// ```
///
/// It speaks HTTP/1.1 with keep-alive (honouring `Connection: close`), reads request
/// bodies framed by `Content-Length` or `Transfer-Encoding: chunked`, answers
/// `Expect: 100-continue`, and always sends `Content-Length`. It keeps each request body, up
/// to 64 MiB (a larger one is answered `413`); for larger uploads, ``bodyRecording`` set to
/// ``BodyRecording/digestOnly`` keeps only each body's size and CRC-32, in constant memory. Each response is written
/// with a single `send` (unless throttled) on a `TCP_NODELAY` socket. Malformed
/// requests get `400` (oversized header sections `431`) and the connection is closed.
///
/// One accept thread plus one thread per connection serve requests, so hundreds of
/// concurrent connections are fine. The type is `Sendable`; every method may be
/// called from any thread or task.
public final class LoopbackServer: Sendable {
    /// Routes a recorded request to the response to send. Runs on the connection's
    /// thread, possibly concurrently for different connections.
    ///
    /// Avoid capturing the server strongly in it: the server owns its dispatcher, so
    /// that would keep the server alive until ``stop()`` is called explicitly.
    public typealias Dispatcher = @Sendable (RecordedRequest) -> Response

    /// The listen backlog: generous, so bursts of hundreds of connects are not refused.
    private static let listenBacklog: Int32 = 1024

    let core: ServerCore

    /// Starts a server listening on 127.0.0.1 at a port the system picks.
    ///
    /// ```swift
    /// let server = try LoopbackServer { request in
    ///     request.path == "/health" ? .text("ok") : .status(404)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - bodyRecording: What to keep of request bodies: every byte (``BodyRecording/keep``, the
    ///     default, up to 64 MiB), or only their size and CRC-32 (``BodyRecording/digestOnly``,
    ///     any size).
    ///   - dispatcher: Optional routing closure used when the queue is empty.
    /// - Throws: ``LoopbackServerError`` when the socket cannot be created, bound or listened on.
    public init(bodyRecording: BodyRecording = .keep, dispatcher: Dispatcher? = nil) throws {
        let wake = try WakeSignal()
        let (listener, port) = try Socket.makeLoopbackListener(backlog: Self.listenBacklog)
        core = ServerCore(port: port, wake: wake, dispatcher: dispatcher)
        core.bodyRecording = bodyRecording
        core.startAcceptLoop(listener: listener)
    }

    deinit {
        core.stop()
    }

    /// The TCP port the server listens on (on 127.0.0.1).
    public var port: Int { core.port }

    /// The server's root URL, e.g. `http://127.0.0.1:54321`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// A URL on this server for `path`, which may include a query.
    ///
    /// ```swift
    /// server.url(for: "/users?page=2")  // http://127.0.0.1:54321/users?page=2
    /// server.url(for: "users")          // http://127.0.0.1:54321/users
    /// ```
    ///
    /// - Parameter path: A path such as `/users`; a missing leading `/` is added.
    /// - Returns: The absolute URL.
    public func url(for path: String) -> URL {
        let normalized = path.hasPrefix("/") ? path : "/" + path
        return URL(string: "http://127.0.0.1:\(port)\(normalized)") ?? baseURL.appendingPathComponent(path)
    }

    /// Whether the server is still accepting connections (``stop()`` not yet called).
    public var isRunning: Bool {
        core.locked { !core.isStopped }
    }

    /// The routing closure consulted when no queued response is left.
    ///
    /// Setting it takes effect for the next request that needs a response.
    public var dispatcher: Dispatcher? {
        get { core.currentDispatcher }
        set { core.currentDispatcher = newValue }
    }

    /// Appends `response` to the queue; each request takes the oldest queued response.
    ///
    /// ```swift
    /// server.enqueue(.text("first"))
    /// server.enqueue(.status(500))
    /// ```
    ///
    /// - Parameter response: The response to send for a future request.
    public func enqueue(_ response: Response) {
        core.enqueue(response)
    }

    /// How many enqueued responses have not been used yet.
    public var queuedResponseCount: Int {
        core.queuedResponseCount
    }

    /// Stops the server: closes the listener and every open connection, wakes every
    /// blocked server thread (including stalled and delayed responses) and pending
    /// `takeRequest(timeout:)` callers, and frees the port.
    ///
    /// When it returns, connecting to ``port`` is refused. Requests already recorded
    /// can still be taken. Calling it again does nothing; `deinit` calls it too.
    /// It waits (at most about ten seconds) for the server's threads to finish, then lets go
    /// of the ``dispatcher`` and the responses still queued, so that two servers whose
    /// dispatchers name each other are freed once both are stopped.
    public func stop() {
        core.stop()
    }
}
