import Foundation
import FunctionalNetworking
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Server-Sent Events server nobody here wrote: Python's `sse-starlette` on `uvicorn`, serving
/// `Streams/Peer/sse_peer.py` on 127.0.0.1, for interop tests of the package's SSE client.
///
/// A suite asks for it with the ``Trait/pythonSSEPeer`` trait, which starts one server for the
/// whole suite and stops it afterwards, whether its tests pass, fail or throw; each test reads
/// it with ``required()``:
///
/// ```swift
/// @Suite(.enabled(PythonSSEPeer.skipReason) { await PythonSSEPeer.shouldRun() }, .pythonSSEPeer)
/// struct PeerTests {
///     @Test func talks() async throws {
///         let peer = try PythonSSEPeer.required()
///         _ = peer.url("/fields")
///     }
/// }
/// ```
///
/// Where python3, `sse-starlette` or `uvicorn` is missing the suite is skipped, unless
/// `FUNCTIONAL_NETWORKING_SSE_PEER=1` asks for it (as `.ci/run` does): then every test fails,
/// saying what is missing. The server is started with `posix_spawn`, not Foundation's `Process`
/// (which reads past a heap buffer under AddressSanitizer on Linux, see `Shell.swift`), with
/// every inherited descriptor above standard error closed, so it holds none of the test
/// process's sockets. It binds port 0 and the port is read from uvicorn's startup line, so no
/// other server can take it in between. Should the test process die without stopping it, the
/// peer notices its parent is gone within half a second and exits.
final class PythonSSEPeer: Sendable {
    /// The server's origin, `http://127.0.0.1:<port>`.
    let origin: URL
    /// The port uvicorn bound.
    let port: Int
    private let pid: pid_t
    private let folder: URL

    private init(port: Int, pid: pid_t, folder: URL) {
        self.port = port
        self.pid = pid
        self.folder = folder
        // A literal URL with a port the kernel gave: it always parses.
        self.origin = URL(string: "http://127.0.0.1:\(port)")!
    }

    // MARK: Whether to run

    static let requiredVariable = "FUNCTIONAL_NETWORKING_SSE_PEER"

    /// Whether `FUNCTIONAL_NETWORKING_SSE_PEER=1` asks for the peer, so that its absence fails.
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment[requiredVariable] == "1"
    }

    /// Why the suite is skipped when it is.
    static let skipReason: Comment =
        "python3 with sse-starlette and uvicorn is not installed (python3 -m pip install sse-starlette uvicorn), or a sanitizer runs; set FUNCTIONAL_NETWORKING_SSE_PEER=1 to run it all the same"

    /// Whether a suite that needs the peer should run: it is required, or python3 can import
    /// `sse_starlette` and `uvicorn` (checked once, within 20 s), and the suite does not run
    /// under a sanitizer (`.ci/run` runs the peer in a step of its own; under a sanitizer a
    /// second process's start and answers make the run's time limits tight for no gain).
    static func shouldRun() async -> Bool {
        if isRequired { return true }
        if ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_SANITIZER"] != nil { return false }
        return await modulesImport.value
    }

    private static let modulesImport = Task<Bool, Never> {
        guard let folder = try? makeFolder() else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard
            let pid = try? spawn(
                ["python3", "-c", "import sse_starlette.sse, uvicorn, starlette"], in: folder, environment: [:])
        else { return false }
        return await waitForExit(pid, within: .seconds(20), killingAfter: true) == 0
    }

    // MARK: Starting and stopping

    /// Why the peer could not be started, in words.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    @TaskLocal static var current: Result<PythonSSEPeer, Unavailable>?

    /// The suite's running peer; throws, failing the test, when it could not be started or the
    /// suite lacks the ``Trait/pythonSSEPeer`` trait.
    static func required() throws -> PythonSSEPeer {
        guard let current else {
            throw Unavailable(description: "The suite has no .pythonSSEPeer trait: no Python SSE peer was started for it.")
        }
        return try current.get()
    }

    /// The folder of `sse_peer.py`, from this file's path.
    static func peerFolder(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Streams").appendingPathComponent("Peer")
    }

    /// Starts uvicorn with `sse_peer:app` on 127.0.0.1, port 0, and returns once it answers
    /// `GET /health`, or throws after `limit`.
    static func start(within limit: Duration = .seconds(60)) async throws -> PythonSSEPeer {
        let script = peerFolder().appendingPathComponent("sse_peer.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw Unavailable(description: "The Python SSE peer's app is missing: \(script.path)")
        }
        let folder = try makeFolder()
        let arguments = [
            "python3", "-m", "uvicorn", "sse_peer:app", "--host", "127.0.0.1", "--port", "0",
            "--app-dir", peerFolder().path, "--no-access-log", "--timeout-graceful-shutdown", "2",
        ]
        let environment = [
            "PYTHONDONTWRITEBYTECODE": "1",  // no __pycache__ beside the sources
            "PYTHONUNBUFFERED": "1",
            "FUNCTIONAL_NETWORKING_SSE_PEER_PARENT": String(getpid()),
        ]
        let pid: pid_t
        do {
            pid = try spawn(arguments, in: folder, environment: environment)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let deadline = ContinuousClock.now + limit
        var port: Int?
        while port == nil {
            let log = contentsOfFile(atPath: folder.appendingPathComponent("stderr").path)
            port = startupPort(in: log)
            if port != nil { break }
            if let status = await waitForExit(pid, within: .zero, killingAfter: false) {
                try? FileManager.default.removeItem(at: folder)
                throw Unavailable(
                    description:
                        "The Python SSE peer (python3 -m uvicorn sse_peer:app) exited with status \(status) before it served: \(log.suffix(2_000))"
                )
            }
            guard ContinuousClock.now < deadline else {
                let peer = PythonSSEPeer(port: 0, pid: pid, folder: folder)
                let log = await peer.stop()
                throw Unavailable(description: "The Python SSE peer did not start within \(limit): \(log.suffix(2_000))")
            }
            await pause(.milliseconds(20))
        }
        let peer = PythonSSEPeer(port: port ?? 0, pid: pid, folder: folder)
        do {
            let remaining = max(deadline - ContinuousClock.now, .seconds(20))
            let (data, status) = try await peer.get("/health", within: remaining)
            guard status == 200, data == Data("ok".utf8) else {
                throw Unavailable(description: "GET /health answered \(status): \(String(decoding: data, as: UTF8.self))")
            }
        } catch {
            let log = await peer.stop()
            throw Unavailable(description: "The Python SSE peer did not answer on port \(peer.port): \(error). \(log.suffix(2_000))")
        }
        return peer
    }

    /// Stops the server: SIGTERM, up to 10 s for it to end (uvicorn is given 2 s to close its
    /// streams), then SIGKILL. Returns what it wrote to standard error.
    @discardableResult
    func stop() async -> String {
        kill(pid, SIGTERM)
        if await Self.waitForExit(pid, within: .seconds(10), killingAfter: true) == nil {
            Issue.record("The Python SSE peer (pid \(pid)) could not be reaped after SIGKILL")
        }
        let log = contentsOfFile(atPath: folder.appendingPathComponent("stderr").path)
        try? FileManager.default.removeItem(at: folder)
        return log
    }

    // MARK: Talking to it

    /// `http://127.0.0.1:<port><pathAndQuery>`, with `key=<key>` added to the query when given.
    func url(_ pathAndQuery: String, key: String? = nil) -> URL {
        var text = origin.absoluteString + pathAndQuery
        if let key {
            text += (pathAndQuery.contains("?") ? "&" : "?") + "key=\(key)"
        }
        // The tests' paths and keys are plain ASCII: the URL always parses.
        return URL(string: text)!
    }

    /// One request the peer recorded under a key.
    struct SeenRequest: Decodable, Equatable, Sendable {
        let path: String
        let lastEventID: String?
        let accept: String?
        let cacheControl: String?
        /// Whether the peer saw the client leave a stream it was still sending (`/ticks`).
        let closed: Bool

        enum CodingKeys: String, CodingKey {
            case path
            case lastEventID = "last_event_id"
            case accept
            case cacheControl = "cache_control"
            case closed
        }
    }

    /// The requests the peer recorded under `key`, in the order they arrived.
    func seen(key: String) async throws -> [SeenRequest] {
        let (data, status) = try await get("/seen?key=\(key)", within: .seconds(30))
        guard status == 200 else { throw Unavailable(description: "GET /seen answered \(status)") }
        return try JSONDecoder().decode([SeenRequest].self, from: data)
    }

    /// A plain GET through a session of its own, with a time limit.
    private func get(_ pathAndQuery: String, within limit: Duration) async throws -> (Data, Int) {
        let transport = makeTestSession().transport
        let request = URLRequest(url: url(pathAndQuery))
        let (data, response) = try await Future { try await transport(request) }.timeout(after: limit).value
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    // MARK: Processes

    private static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sse-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Starts `arguments` (the first found on `PATH`) with standard input from /dev/null, output
    /// and errors into `folder`'s `stdout` and `stderr`, no other inherited descriptor, and the
    /// process's environment plus `environment`.
    private static func spawn(_ arguments: [String], in folder: URL, environment: [String: String]) throws -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, folder.appendingPathComponent("stdout").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(
            &actions, 2, folder.appendingPathComponent("stderr").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The spawning thread (a concurrency pool thread) blocks most signals, and a child
        // inherits that mask: SIGTERM would then never reach uvicorn. Start it with no signal
        // blocked and the ending signals at their default actions.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        #if !canImport(Darwin)
        // glibc 2.34 and later; Swift's Glibc module does not export it, so look it up.
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        #endif

        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv + [nil], envp + [nil])
        guard result == 0 else {
            throw Unavailable(
                description: "\(arguments[0]) could not be started (\(String(cString: strerror(result)))): is it installed and on PATH?")
        }
        return pid
    }

    /// Waits up to `limit` for `pid` to exit and returns its status (128 + the signal when a
    /// signal ended it); on time out, kills it with SIGKILL and reaps it when `killingAfter`,
    /// else returns nil.
    private static func waitForExit(_ pid: pid_t, within limit: Duration, killingAfter: Bool) async -> Int32? {
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 { return nil }
            if ContinuousClock.now >= deadline {
                guard killingAfter else { return nil }
                kill(pid, SIGKILL)
                guard waitpid(pid, &status, 0) == pid else { return nil }
                break
            }
            await pause(.milliseconds(20))
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Sleeps `duration`, even in a cancelled task (stopping the server must finish).
    private static func pause(_ duration: Duration) async {
        if (try? await Task.sleep(for: duration)) == nil {
            let (seconds, attoseconds) = duration.components
            usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        }
    }

    /// The port in uvicorn's `Uvicorn running on http://127.0.0.1:<port>` line, if it is there.
    private static func startupPort(in log: String) -> Int? {
        let marker = "Uvicorn running on http://127.0.0.1:"
        guard let range = log.range(of: marker) else { return nil }
        return Int(log[range.upperBound...].prefix { $0.isNumber })
    }
}

/// Starts one ``PythonSSEPeer`` around a whole suite and stops it afterwards, whatever happened;
/// a failed start is kept for ``PythonSSEPeer/required()`` to throw in each test.
struct PythonSSEPeerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite ? self : nil
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let started: Result<PythonSSEPeer, PythonSSEPeer.Unavailable>
        do {
            started = .success(try await PythonSSEPeer.start())
        } catch let error as PythonSSEPeer.Unavailable {
            started = .failure(error)
        } catch {
            started = .failure(PythonSSEPeer.Unavailable(description: "The Python SSE peer did not start: \(error)"))
        }
        do {
            try await PythonSSEPeer.$current.withValue(started) { try await function() }
        } catch {
            if case .success(let peer) = started { await peer.stop() }
            throw error
        }
        if case .success(let peer) = started { await peer.stop() }
    }
}

extension Trait where Self == PythonSSEPeerTrait {
    /// One Python SSE peer (sse-starlette on uvicorn) for the suite, stopped after it.
    static var pythonSSEPeer: Self { PythonSSEPeerTrait() }
}
