// Three ways of carrying per-call settings (request id and number, the endpoint's response-size
// limit, the download target, the progress observer, the status check, the stored-cookies memo)
// past a stack of 10 composers over an in-memory terminal that answers at once, as a plain
// program for counting instructions and mallocs under valgrind (count.sh, README.md):
//
//     ContextInstructions <scenario> <calls>
//     ContextInstructions facts        # prints what task-locals are inherited by, and exits
//
// Scenarios (see README.md for what each composer reads and writes):
//   today-7        seven task-locals bound by the entry point, composers read 0-3 of them
//   today-common   today's common path: the entry point binds 2 (status check, response
//                  limit), numbered binds 2 (chosen id -> nil, request context), authenticated
//                  binds 1 (cookie memo); the rest read
//   A              the context as a parameter: (URLRequest, CallContext) -> ...;
//                  numbered and authenticated pass a modified copy
//   A-seed         A, with the retry composer written in the seeds' (URLRequest) -> ... shape
//                  and adapted per call
//   B-struct       one task-local holding a struct, bound once by the entry point; numbered
//                  and authenticated re-bind a modified copy; logged, validatingStatus and
//                  cached read it (and the terminal)
//   B-class        the same with an immutable final class (a modified copy is a new object)
//   bare-0, bare-A bare-B: the terminal alone, through each shape, with no composer
//   <x>-fresh      x, where authenticated also sends one call of its own ("a refresh") to the
//                  terminal with a fresh, empty context
//   <x>-inherit    the same, with the refresh inheriting the caller's context (the leak), so
//                  that fresh - inherit is the price of a fresh context alone
//
// The calls run one after another in a detached task while the main thread waits on a
// semaphore: valgrind crashes in an `async` main (dispatch's main-thread `sigsuspend`).

import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Stand-ins for the library's per-call objects

/// The status rule's verdict (the library's has a lock; the same plain one serves every design).
final class StatusCheck: @unchecked Sendable {
    var accepted = false
}

/// Where a download goes.
final class DownloadTarget: Sendable {
    let destination: URL
    let maximumSize: Int?
    init(destination: URL, maximumSize: Int?) {
        self.destination = destination
        self.maximumSize = maximumSize
    }
}

/// Who watches progress.
final class ProgressReporter: Sendable {
    let observer: @Sendable (Int64) -> Void
    init(_ observer: @escaping @Sendable (Int64) -> Void) { self.observer = observer }
}

/// The stored-cookies memo (made once here: the storage look-up is not what is measured).
final class StoredCookiesMemo: Sendable {
    let cookies: String?
    init(cookies: String?) { self.cookies = cookies }
}

/// Today's `RequestContext`.
struct RequestContext: Sendable {
    var id: UUID
    var number: Int
}

/// Keeps what composers read, so that no read is optimised away.
final class Sink: @unchecked Sendable {
    var reads = 0
    var bytes = 0
    var numbers = 0
}

let sink = Sink()
let fixedID = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
let download = DownloadTarget(destination: URL(fileURLWithPath: "/tmp/download"), maximumSize: 1 << 20)
let progress = ProgressReporter { sink.bytes &+= Int($0) }
let memo = StoredCookiesMemo(cookies: "a=b")
let request = URLRequest(url: URL(string: "https://example.com/items")!)
let refreshRequest = URLRequest(url: URL(string: "https://example.com/token")!)
let answer = (
    Data("{}".utf8),
    HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)! as URLResponse
)

@inline(never) func read(_ value: AnyObject?) { if value != nil { sink.reads &+= 1 } }
@inline(never) func read(_ value: Int?) { if let value { sink.reads &+= value & 1 } }
@inline(never) func read(_ value: UUID?) { if value != nil { sink.reads &+= 1 } }
@inline(never) func number() -> Int {
    sink.numbers &+= 1
    return sink.numbers
}

// MARK: - Today: seven task-locals

typealias Transport = @Sendable (URLRequest) async throws -> (Data, URLResponse)
typealias Composer = @Sendable (@escaping Transport) -> Transport

enum Today {
    @TaskLocal static var status: StatusCheck?  // StatusCheck.current
    @TaskLocal static var limit: Int?  // PackageSession.endpointResponseLimit
    @TaskLocal static var download: DownloadTarget?  // TransferContext.download
    @TaskLocal static var progress: ProgressReporter?  // TransferContext.progress
    @TaskLocal static var requestContext: RequestContext?  // RequestContext.current
    @TaskLocal static var chosenID: UUID?  // RequestContext.chosenID
    @TaskLocal static var cookies: StoredCookiesMemo?  // StoredCookiesMemo.current

    /// The in-memory terminal, reading what the session delegate reads.
    static let terminal: Transport = { _ in
        read(Today.download)
        read(Today.progress)
        read(Today.limit)
        return answer
    }

    static func passThrough() -> Composer { { next in { request in try await next(request) } } }

    /// `common`: numbered binds the request context as the library's does; otherwise it only
    /// reads (the entry point bound all seven).
    static func composers(common: Bool, refresh: Refresh) -> [Layer] {
        let numbered: Composer = { next in
            { request in
                read(Today.chosenID)
                if common {
                    let context = RequestContext(id: Today.chosenID ?? fixedID, number: number())
                    return try await Today.$chosenID.withValue(nil) {
                        try await Today.$requestContext.withValue(context) { try await next(request) }
                    }
                }
                _ = number()
                return try await next(request)
            }
        }
        let logged: Composer = { next in
            { request in
                read(Today.requestContext?.number)
                return try await next(request)
            }
        }
        let validatingStatus: Composer = { next in
            { request in
                let result = try await next(request)
                Today.status?.accepted = true
                return result
            }
        }
        let authenticated: Composer = { next in
            { request in
                switch refresh {
                case .none: break
                case .inherit: sink.bytes &+= try await terminal(refreshRequest).0.count
                case .fresh:
                    // A fresh context today: every task-local a call may see, unbound.
                    sink.bytes &+= try await Today.$status.withValue(nil) {
                        try await Today.$limit.withValue(nil) {
                            try await Today.$download.withValue(nil) {
                                try await Today.$progress.withValue(nil) {
                                    try await Today.$requestContext.withValue(nil) {
                                        try await Today.$chosenID.withValue(nil) {
                                            try await Today.$cookies.withValue(nil) {
                                                try await terminal(refreshRequest)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }.0.count
                }
                if common {
                    return try await Today.$cookies.withValue(memo) { try await next(request) }
                }
                read(Today.cookies)
                return try await next(request)
            }
        }
        let cached: Composer = { next in
            { request in
                read(Today.download)
                read(Today.limit)
                return try await next(request)
            }
        }
        return [
            Layer(numbered), Layer(logged), Layer(passThrough()), Layer(validatingStatus), Layer(passThrough()), Layer(passThrough()), Layer(authenticated), Layer(cached), Layer(passThrough()), Layer(passThrough()),
        ]
    }

    /// The entry point: `sendChecked` (status check, response limit) and, for `all`, a
    /// download with progress and a chosen id, as `download(_:to:)`, `withTransferProgress`
    /// and `RequestContext.withID` would bind them.
    static func call(_ transport: Transport, all: Bool) async throws -> Int {
        let check = StatusCheck()
        let result: (Data, URLResponse)
        if all {
            result = try await Today.$chosenID.withValue(fixedID) {
                try await Today.$progress.withValue(progress) {
                    try await Today.$download.withValue(download) {
                        try await Today.$status.withValue(check) {
                            try await Today.$limit.withValue(1 << 20) {
                                try await Today.$requestContext.withValue(RequestContext(id: fixedID, number: 0)) {
                                    try await Today.$cookies.withValue(memo) {
                                        try await transport(request)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        } else {
            result = try await Today.$status.withValue(check) {
                try await Today.$limit.withValue(1 << 20) { try await transport(request) }
            }
        }
        return check.accepted ? result.0.count : 0
    }
}

enum Refresh { case none, inherit, fresh }

// MARK: - A: the context as a parameter

/// The one per-call context: eight fields, four of them class references.
struct CallContext: Sendable {
    var id: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var number: Int = 0
    var responseLimit: Int? = nil
    var status: StatusCheck? = nil
    var download: DownloadTarget? = nil
    var progress: ProgressReporter? = nil
    var cookies: StoredCookiesMemo? = nil
    var deadline: Double? = nil
}

typealias TransportA = @Sendable (URLRequest, CallContext) async throws -> (Data, URLResponse)
typealias ComposerA = @Sendable (@escaping TransportA) -> TransportA

enum DesignA {
    static let terminal: TransportA = { _, context in
        read(context.download)
        read(context.progress)
        read(context.responseLimit)
        return answer
    }

    static func passThrough() -> ComposerA { { next in { request, context in try await next(request, context) } } }

    /// The seeds' shape of a composer, adapted to A per call: the adapter captures the context
    /// in the transport it hands the seed composer.
    static func adapted(_ seed: @escaping Composer) -> ComposerA {
        { next in
            { request, context in
                try await seed({ request in try await next(request, context) })(request)
            }
        }
    }

    static func composers(refresh: Refresh, seedRetry: Bool) -> [LayerA] {
        let numbered: ComposerA = { next in
            { request, context in
                var context = context
                context.number = number()
                return try await next(request, context)
            }
        }
        let logged: ComposerA = { next in
            { request, context in
                read(context.number)
                return try await next(request, context)
            }
        }
        let validatingStatus: ComposerA = { next in
            { request, context in
                let result = try await next(request, context)
                context.status?.accepted = true
                return result
            }
        }
        let authenticated: ComposerA = { next in
            { request, context in
                switch refresh {
                case .none: break
                case .inherit: sink.bytes &+= try await terminal(refreshRequest, context).0.count
                case .fresh: sink.bytes &+= try await terminal(refreshRequest, CallContext()).0.count
                }
                var context = context
                context.cookies = memo
                return try await next(request, context)
            }
        }
        let cached: ComposerA = { next in
            { request, context in
                read(context.download)
                read(context.responseLimit)
                return try await next(request, context)
            }
        }
        let retry: ComposerA = seedRetry ? adapted(Today.passThrough()) : passThrough()
        return [
            LayerA(numbered), LayerA(logged), LayerA(passThrough()), LayerA(validatingStatus), LayerA(retry), LayerA(passThrough()), LayerA(authenticated), LayerA(cached), LayerA(passThrough()), LayerA(passThrough()),
        ]
    }

    static func call(_ transport: TransportA) async throws -> Int {
        let check = StatusCheck()
        let context = CallContext(
            id: fixedID, number: 0, responseLimit: 1 << 20, status: check, download: download,
            progress: progress, cookies: nil, deadline: nil
        )
        let result = try await transport(request, context)
        return check.accepted ? result.0.count : 0
    }
}

// MARK: - B: one task-local holding the context

enum DesignBStruct {
    @TaskLocal static var current = CallContext()

    static let terminal: Transport = { _ in
        let context = current
        read(context.download)
        read(context.progress)
        read(context.responseLimit)
        return answer
    }

    static func composers(refresh: Refresh) -> [Layer] {
        let numbered: Composer = { next in
            { request in
                var context = current
                context.number = number()
                return try await $current.withValue(context) { try await next(request) }
            }
        }
        let logged: Composer = { next in
            { request in
                read(current.number)
                return try await next(request)
            }
        }
        let validatingStatus: Composer = { next in
            { request in
                let result = try await next(request)
                current.status?.accepted = true
                return result
            }
        }
        let authenticated: Composer = { next in
            { request in
                switch refresh {
                case .none: break
                case .inherit: sink.bytes &+= try await terminal(refreshRequest).0.count
                case .fresh:
                    sink.bytes &+= try await $current.withValue(CallContext()) { try await terminal(refreshRequest) }.0.count
                }
                var context = current
                context.cookies = memo
                return try await $current.withValue(context) { try await next(request) }
            }
        }
        let cached: Composer = { next in
            { request in
                let context = current
                read(context.download)
                read(context.responseLimit)
                return try await next(request)
            }
        }
        return [
            Layer(numbered), Layer(logged), Layer(Today.passThrough()), Layer(validatingStatus), Layer(Today.passThrough()), Layer(Today.passThrough()), Layer(authenticated), Layer(cached), Layer(Today.passThrough()), Layer(Today.passThrough()),
        ]
    }

    static func call(_ transport: Transport) async throws -> Int {
        let check = StatusCheck()
        let context = CallContext(
            id: fixedID, number: 0, responseLimit: 1 << 20, status: check, download: download,
            progress: progress, cookies: nil, deadline: nil
        )
        let result = try await $current.withValue(context) { try await transport(request) }
        return check.accepted ? result.0.count : 0
    }
}

/// The same eight fields in an immutable final class: a modified copy is a new object.
final class CallContextObject: Sendable {
    let id: UUID
    let number: Int
    let responseLimit: Int?
    let status: StatusCheck?
    let download: DownloadTarget?
    let progress: ProgressReporter?
    let cookies: StoredCookiesMemo?
    let deadline: Double?

    init(
        id: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), number: Int = 0,
        responseLimit: Int? = nil, status: StatusCheck? = nil, download: DownloadTarget? = nil,
        progress: ProgressReporter? = nil, cookies: StoredCookiesMemo? = nil, deadline: Double? = nil
    ) {
        self.id = id
        self.number = number
        self.responseLimit = responseLimit
        self.status = status
        self.download = download
        self.progress = progress
        self.cookies = cookies
        self.deadline = deadline
    }

    func with(number: Int) -> CallContextObject {
        CallContextObject(
            id: id, number: number, responseLimit: responseLimit, status: status, download: download,
            progress: progress, cookies: cookies, deadline: deadline
        )
    }

    func with(cookies: StoredCookiesMemo?) -> CallContextObject {
        CallContextObject(
            id: id, number: number, responseLimit: responseLimit, status: status, download: download,
            progress: progress, cookies: cookies, deadline: deadline
        )
    }

    static let empty = CallContextObject()
}

enum DesignBClass {
    @TaskLocal static var current = CallContextObject.empty

    static let terminal: Transport = { _ in
        let context = current
        read(context.download)
        read(context.progress)
        read(context.responseLimit)
        return answer
    }

    static func composers(refresh: Refresh) -> [Layer] {
        let numbered: Composer = { next in
            { request in
                try await $current.withValue(current.with(number: number())) { try await next(request) }
            }
        }
        let logged: Composer = { next in
            { request in
                read(current.number)
                return try await next(request)
            }
        }
        let validatingStatus: Composer = { next in
            { request in
                let result = try await next(request)
                current.status?.accepted = true
                return result
            }
        }
        let authenticated: Composer = { next in
            { request in
                switch refresh {
                case .none: break
                case .inherit: sink.bytes &+= try await terminal(refreshRequest).0.count
                case .fresh:
                    sink.bytes &+= try await $current.withValue(.empty) { try await terminal(refreshRequest) }.0.count
                }
                return try await $current.withValue(current.with(cookies: memo)) { try await next(request) }
            }
        }
        let cached: Composer = { next in
            { request in
                let context = current
                read(context.download)
                read(context.responseLimit)
                return try await next(request)
            }
        }
        return [
            Layer(numbered), Layer(logged), Layer(Today.passThrough()), Layer(validatingStatus), Layer(Today.passThrough()), Layer(Today.passThrough()), Layer(authenticated), Layer(cached), Layer(Today.passThrough()), Layer(Today.passThrough()),
        ]
    }

    static func call(_ transport: Transport) async throws -> Int {
        let check = StatusCheck()
        let context = CallContextObject(
            id: fixedID, number: 0, responseLimit: 1 << 20, status: check, download: download,
            progress: progress, cookies: nil, deadline: nil
        )
        let result = try await $current.withValue(context) { try await transport(request) }
        return check.accepted ? result.0.count : 0
    }
}

// MARK: - Composition

/// A composer in a struct, as the library's `Composer` holds its closure: an array of bare
/// closures would store them at the most general abstraction and add reabstraction thunks
/// (each an async call of its own) around every layer.
struct Layer: Sendable {
    let wrap: Composer
    init(_ wrap: @escaping Composer) { self.wrap = wrap }
}

struct LayerA: Sendable {
    let wrap: ComposerA
    init(_ wrap: @escaping ComposerA) { self.wrap = wrap }
}

func compose(_ terminal: @escaping Transport, _ layers: [Layer]) -> Transport {
    var transport = terminal
    for layer in layers.reversed() { transport = layer.wrap(transport) }
    return transport
}

func compose(_ terminal: @escaping TransportA, _ layers: [LayerA]) -> TransportA {
    var transport = terminal
    for layer in layers.reversed() { transport = layer.wrap(transport) }
    return transport
}

// MARK: - Facts: what inherits a task-local

func facts() async {
    func seen() -> String { DesignBStruct.current.download?.destination.path ?? "none" }
    let context = CallContext(download: download)
    await DesignBStruct.$current.withValue(context) {
        print("inside withValue:            download = \(seen())")
        print("Task {}:                     download = \(await Task { seen() }.value)")
        print("Task.detached {}:            download = \(await Task.detached { seen() }.value)")
        async let child = seen()
        print("async let:                   download = \(await child)")
        let grouped = await withTaskGroup(of: String.self) { group in
            group.addTask { seen() }
            return await group.next()!
        }
        print("task group child:            download = \(grouped)")
        // A shared call started by the first caller (as a de-duplicator would) keeps the
        // first caller's context even when a second caller, with none, awaits it.
        let shared = Task { seen() }
        let second = await DesignBStruct.$current.withValue(CallContext()) { await shared.value }
        print("shared Task awaited by a second caller: download = \(second)")
        let fresh = await DesignBStruct.$current.withValue(CallContext()) { await Task { seen() }.value }
        print("Task {} inside withValue(fresh): download = \(fresh)")
    }
    print("after withValue:             download = \(seen())")
}

// MARK: - Driver

let arguments = CommandLine.arguments
if arguments.count == 2 && arguments[1] == "facts" {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await facts()
        done.signal()
    }
    done.wait()
    exit(0)
}
guard arguments.count == 3, let calls = Int(arguments[2]) else {
    fatalError("usage: ContextInstructions <scenario> <calls> | facts")
}
let scenario = arguments[1]
let refresh: Refresh =
    scenario.hasSuffix("-fresh") ? .fresh : scenario.hasSuffix("-inherit") ? .inherit : .none
let base = scenario.replacingOccurrences(of: "-fresh", with: "").replacingOccurrences(of: "-inherit", with: "")

let run: @Sendable () async throws -> Int
switch base {
case "bare-0":
    let transport = Today.terminal
    run = { try await transport(request).0.count }
case "bare-A":
    let transport = DesignA.terminal
    run = { try await transport(request, CallContext()).0.count }
case "bare-B":
    let transport = DesignBStruct.terminal
    run = { try await transport(request).0.count }
case "today-7":
    let transport = compose(Today.terminal, Today.composers(common: false, refresh: refresh))
    run = { try await Today.call(transport, all: true) }
case "today-common":
    let transport = compose(Today.terminal, Today.composers(common: true, refresh: refresh))
    run = { try await Today.call(transport, all: false) }
case "A", "A-seed":
    let transport = compose(DesignA.terminal, DesignA.composers(refresh: refresh, seedRetry: base == "A-seed"))
    run = { try await DesignA.call(transport) }
case "B-struct":
    let transport = compose(DesignBStruct.terminal, DesignBStruct.composers(refresh: refresh))
    run = { try await DesignBStruct.call(transport) }
case "B-class":
    let transport = compose(DesignBClass.terminal, DesignBClass.composers(refresh: refresh))
    run = { try await DesignBClass.call(transport) }
default:
    fatalError("unknown scenario \(scenario)")
}

let done = DispatchSemaphore(value: 0)
Task.detached {
    for _ in 0..<calls {
        do {
            sink.bytes &+= try await run()
        } catch {
            fatalError("a call failed: \(error)")
        }
    }
    done.signal()
}
done.wait()
if sink.bytes == 0 && calls > 0 && !base.hasPrefix("bare") {
    fatalError("no call was accepted")
}
