// Issue 17, part 4: end to end against nginx on 127.0.0.1 (started by nginx-comparison.sh,
// which serves /products/<n>.json for n in 0..<1,000, each file distinct).
//
//     NginxComparison <port> <rounds>
//
// Seven paths fetch and decode the same 1,000 distinct URLs, one after another and with 32 in
// flight:
// - raw:       URLSession.shared.data(for:) + a status check + JSONDecoder
// - raw-delegate: the same through a URLSession whose minimal delegate collects the body and
//              resumes the waiter (what delegate callbacks cost URLSession itself)
// - package:   NetworkSession.shared.networking() (what URLSession.shared.request runs), then
//              decoded(), awaited
// - decoded-after: the package path, its body decoded by the caller after the await (not by
//              `decoded()` on the thread that completes the future)
// - no-url-cache: the package path on a session of its own whose configuration has no URL cache
// - transport: networking(from: NetworkSession.shared.transport), the same through an awaited
//              transport (a task per request)
// - stack:     NetworkSession.shared.networking(with:) and the full composer stack
// Each round runs every path once per mode, in a rotated order, so that the machine's drift
// spreads evenly; the ratios are throughput against raw's in the same round.

import Foundation
import FunctionalNetworking
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Product: Decodable, Sendable {
    let id: Int
    let name: String
    let price: Double
    let currency: String
    let inStock: Bool
}

let requestCount = 1_000
let inFlight = 32

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let rounds = Int(arguments[2]) else {
    fatalError("usage: NginxComparison <port> <rounds>")
}

/// The nginx server's URLs.
struct Server: Sendable {
    let port: Int

    func url(_ index: Int) -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)/products/\(index).json") else {
            preconditionFailure("The benchmark's URL is malformed.")
        }
        return url
    }

    func endpoint(_ index: Int) -> Endpoint {
        Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: port), path: "/products/\(index).json")
    }
}

let server = Server(port: port)

enum Failure: Error {
    case status(Int)
    case wrongProduct(Int)
}

/// One path: fetches and decodes product `index`.
typealias Path = @Sendable (Int) async throws -> Product

let raw: Path = { index in
    let (data, response) = try await URLSession.shared.data(for: URLRequest(url: server.url(index)))
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else { throw Failure.status(status) }
    return try JSONDecoder().decode(Product.self, from: data)
}

/// The least a URLSession delegate can do: collect each body and resume its waiter when the
/// task completes, its callbacks run where the session delivers them (an operation queue that
/// runs each at once, as the package's session does on Linux). It tells what delegate callbacks
/// cost URLSession itself, whoever handles them.
final class MinimalDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [Int: (body: Data, continuation: CheckedContinuation<(Data, URLResponse), any Error>)] = [:]

    func send(_ request: URLRequest, on session: URLSession) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request)
            lock.withLock { waiting[task.taskIdentifier] = (Data(), continuation) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { waiting[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ waiting.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            entry.continuation.resume(throwing: error)
        } else if let response = task.response {
            entry.continuation.resume(returning: (entry.body, response))
        } else {
            entry.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}

/// An operation queue that runs each operation at once, on the thread that adds it.
final class InlineQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}

let minimalDelegate = MinimalDelegate()
let delegateSession = URLSession(
    configuration: URLSession.shared.configuration, delegate: minimalDelegate, delegateQueue: InlineQueue()
)
let rawDelegate: Path = { index in
    let (data, response) = try await minimalDelegate.send(URLRequest(url: server.url(index)), on: delegateSession)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else { throw Failure.status(status) }
    return try JSONDecoder().decode(Product.self, from: data)
}

let packageNetworking = NetworkSession.shared.networking()
let package: Path = { index in
    try await packageNetworking(server.endpoint(index)).decoded().value
}

/// The package's session with no URL cache: what asking the cache costs each request.
let uncachedNetworking: Networking = {
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    return NetworkSession(configuration: configuration).networking()
}()
let uncached: Path = { index in
    try await uncachedNetworking(server.endpoint(index)).decoded().value
}

let awaitedDecoding: Path = { index in
    try JSONDecoder().decode(Product.self, from: await packageNetworking(server.endpoint(index)).value)
}

let transportNetworking = networking(from: NetworkSession.shared.transport)
let transport: Path = { index in
    try await transportNetworking(server.endpoint(index)).decoded().value
}

let origin = Origin(scheme: "http", host: "127.0.0.1", port: port)
let stackNetworking = NetworkSession.shared.networking(
    with: .numbered(),
    .logged(to: { _ in }, level: .error),
    .metrics(into: MetricsRecorder()),
    .deduplicated(),
    .authenticated(by: Authenticator(store: CredentialStore(.bearer("benchmark-token")), allowedOrigins: [origin])),
    .retry(),
    .timeout(after: .seconds(10)),
    .throttled(maxConcurrent: inFlight),
    .validatingStatus()
)
let stack: Path = { index in
    try await stackNetworking(server.endpoint(index)).decoded().value
}

/// Every path, or only those `NGINX_PATHS` names (comma-separated): a profile of one path needs
/// the others out of the process. Ratios are given when `raw` runs too.
let paths: [(name: String, path: Path)] = {
    let all: [(name: String, path: Path)] = [
        ("raw", raw), ("raw-delegate", rawDelegate), ("package", package), ("decoded-after", awaitedDecoding), ("no-url-cache", uncached),
        ("transport", transport),
        ("stack", stack),
    ]
    guard let names = ProcessInfo.processInfo.environment["NGINX_PATHS"]?.split(separator: ",").map(String.init) else { return all }
    return all.filter { names.contains($0.name) }
}()

/// Seconds to fetch products `range` one after another.
func sequential(_ path: @escaping Path, range: Range<Int>) async throws -> Double {
    let start = ContinuousClock.now
    for index in range {
        let product = try await path(index)
        guard product.id == index else { throw Failure.wrongProduct(product.id) }
    }
    return seconds(since: start)
}

/// Seconds to fetch `count` products one after another.
func sequential(_ path: @escaping Path, count: Int = requestCount) async throws -> Double {
    try await sequential(path, range: 0..<count)
}

/// The CPU time of the whole process so far (URLSession's threads included), in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Seconds to fetch `count` products with `inFlight` requests in flight.
func concurrent(_ path: @escaping Path, count: Int = requestCount) async throws -> Double {
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Int.self) { group in
        var next = 0
        while next < min(inFlight, count) {
            let index = next
            group.addTask { try await path(index).id }
            next += 1
        }
        while try await group.next() != nil {
            if next < count {
                let index = next
                group.addTask { try await path(index).id }
                next += 1
            }
        }
    }
    return seconds(since: start)
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func format(_ value: Double) -> String {
    String(format: "%.2f", value)
}

// Warm up every path (connections, the package session, the decoders' metadata).
for (_, path) in paths {
    _ = try await sequential(path, count: 100)
    _ = try await concurrent(path, count: 100)
}

var ratios: [String: [Double]] = [:]
var throughputs: [String: [Double]] = [:]
var cpuPerRequest: [String: [Double]] = [:]

/// Records one round of one mode: wall-clock seconds and CPU seconds per path.
@MainActor func record(round: Int, mode: String, times: [String: Double], cpu: [String: Double]) {
    var line = "round \(round + 1), \(mode):"
    for (name, _) in paths {
        let time = times[name] ?? .nan
        let perSecond = Double(requestCount) / time
        throughputs["\(mode) \(name)", default: []].append(perSecond)
        let microseconds = (cpu[name] ?? .nan) / Double(requestCount) * 1e6
        cpuPerRequest["\(mode) \(name)", default: []].append(microseconds)
        line += " \(name) \(Int(perSecond.rounded())) req/s, \(Int(microseconds.rounded())) µs CPU/req"
        if name != "raw", let rawTime = times["raw"] {
            let ratio = rawTime / time
            ratios["\(mode) \(name)", default: []].append(ratio)
            line += " (\(format(ratio)) of raw)"
        }
        line += ";"
    }
    print(line)
}

// Sequentially, the paths take turns every 100 requests, so that the machine's drift (times
// here move by up to 1.7x) reaches them alike; each path still sends all 1,000 URLs.
let block = 100
for round in 0..<rounds {
    var times: [String: Double] = [:]
    var cpu: [String: Double] = [:]
    for start in stride(from: 0, to: requestCount, by: block) {
        for offset in 0..<paths.count {
            let (name, path) = paths[(round + start / block + offset) % paths.count]
            let cpuBefore = processCPUSeconds()
            times[name, default: 0] += try await sequential(path, range: start..<min(start + block, requestCount))
            cpu[name, default: 0] += processCPUSeconds() - cpuBefore
        }
    }
    record(round: round, mode: "sequential", times: times, cpu: cpu)

    // With 32 in flight, each path runs its 1,000 requests whole, in a rotated order.
    times = [:]
    cpu = [:]
    for offset in 0..<paths.count {
        let (name, path) = paths[(round + offset) % paths.count]
        let cpuBefore = processCPUSeconds()
        times[name] = try await concurrent(path)
        cpu[name] = processCPUSeconds() - cpuBefore
    }
    record(round: round, mode: "32 in flight", times: times, cpu: cpu)
}

print("")
print("| Mode | Path | Requests/s (median) | CPU µs / request (median) | Throughput ÷ raw's, median (range) |")
print("|---|---|---:|---:|---|")
for mode in ["sequential", "32 in flight"] {
    for (name, _) in paths {
        let perSecond = median(throughputs["\(mode) \(name)"] ?? [])
        let cell: String
        if let values = ratios["\(mode) \(name)"] {
            cell = "\(format(median(values))) (\(format(values.min() ?? .nan))–\(format(values.max() ?? .nan)))"
        } else {
            cell = "—"
        }
        let microseconds = median(cpuPerRequest["\(mode) \(name)"] ?? [])
        print("| \(mode) | \(name) | \(Int(perSecond.rounded())) | \(Int(microseconds.rounded())) | \(cell) |")
    }
}
