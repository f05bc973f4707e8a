#if os(Linux)
import Glibc
import Synchronization

/// The object the threads share: the lock stored inline, as in a future, and the few fields it
/// guards. The padding keeps two such objects off one cache line.
final class Guarded<L: ContentionLock & ~Copyable>: @unchecked Sendable {
    let lock = L()
    @exclusivity(unchecked) var state: UInt8 = 0
    @exclusivity(unchecked) var value = 0
    @exclusivity(unchecked) var observers = 0
    @exclusivity(unchecked) var last = 0
    /// Every acquisition adds one: a lost update would show that the lock let two in.
    @exclusivity(unchecked) var acquired = 0
    @exclusivity(unchecked) var padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// What a future does under its lock: read the state, write two or three fields.
    @inline(__always)
    func criticalSection(_ id: Int) {
        if state == 0 {
            value &+= id
            observers &+= 1
            if observers & 1023 == 0 { state = 1 }
        } else {
            state = 0
            value = 0
        }
        last = id
        acquired &+= 1
    }
}

/// The start and stop flags, on a cache line of their own.
final class Control: Sendable {
    let go = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    let ready = Atomic<Int>(0)
    let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// The monotonic clock in nanoseconds (`clock_gettime`, through the vDSO).
@inline(__always)
func now() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// What one thread did: its acquisitions, the sampled waits for the lock (every 64th
/// acquisition, nanoseconds), and the longest time it took to make 64 acquisitions.
struct ThreadResult {
    var acquisitions = 0
    var waits: [Int] = []
    var longestStretch = 0
    var idle = false
}

/// The loop every thread runs until told to stop.
func hammer<L: ContentionLock & ~Copyable>(_ guarded: Guarded<L>, _ control: Control, id: Int) -> ThreadResult {
    var result = ThreadResult()
    result.waits.reserveCapacity(1 << 16)
    var count = 0
    var lastSample = now()
    while !control.stop.load(ordering: .relaxed) {
        if count & 63 == 0 {
            let before = now()
            guarded.lock.lock()
            let after = now()
            guarded.criticalSection(id)
            guarded.lock.unlock()
            result.waits.append(after - before)
            result.longestStretch = max(result.longestStretch, after - lastSample)
            lastSample = after
        } else {
            guarded.lock.lock()
            guarded.criticalSection(id)
            guarded.lock.unlock()
        }
        count += 1
    }
    result.acquisitions = count
    return result
}

/// A joinable thread that runs `body` and keeps what it returns.
final class Worker {
    let body: () -> ThreadResult
    var result = ThreadResult()
    var thread = pthread_t()

    init(_ body: @escaping () -> ThreadResult) { self.body = body }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let worker = Unmanaged<Worker>.fromOpaque(context).takeRetainedValue()
                worker.result = worker.body()
                return nil
            }, context)
        precondition(status == 0, "pthread_create failed with \(status)")
    }

    func join() { pthread_join(thread, nil) }
}

/// How the threads meet the lock.
enum Scenario: CaseIterable {
    case sixteenOnOne, twoOnOne, sixteenOwn, sixteenOneIdle

    var threads: Int { self == .twoOnOne ? 2 : 16 }

    var title: String {
        switch self {
        case .sixteenOnOne: "16 threads, one lock"
        case .twoOnOne: "2 threads, one lock"
        case .sixteenOwn: "16 threads, each its own lock (no contention)"
        case .sixteenOneIdle: "16 threads, one lock, one of them SCHED_IDLE"
        }
    }
}

/// One candidate's run of one scenario, and what the process spent on it.
struct Run {
    var name = ""
    var seconds = 0.0
    var threads: [ThreadResult] = []
    var cpuSeconds = 0.0
    var contextSwitches = 0
}

func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func contextSwitches() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_nvcsw + usage.ru_nivcsw
}

/// `SCHED_IDLE` (<linux/sched.h>), which Glibc's module does not export.
let schedIdle: Int32 = 5

/// Runs `scenario` with lock type `L` for `seconds` of wall time.
func measure<L: ContentionLock & ~Copyable>(_: L.Type, _ scenario: Scenario, seconds: Double) -> Run {
    let control = Control()
    let shared = Guarded<L>()
    let workers = (0..<scenario.threads).map { id in
        Worker {
            if scenario == .sixteenOneIdle, id == 0 {
                var parameters = sched_param()
                let status = pthread_setschedparam(pthread_self(), schedIdle, &parameters)
                precondition(status == 0, "SCHED_IDLE refused: \(status)")
            }
            // Each thread's own lock is made on that thread (its allocations in its arena).
            let guarded = scenario == .sixteenOwn ? Guarded<L>() : shared
            control.ready.add(1, ordering: .releasing)
            while !control.go.load(ordering: .acquiring) { sched_yield() }
            var result = hammer(guarded, control, id: id)
            result.idle = scenario == .sixteenOneIdle && id == 0
            return result
        }
    }
    for worker in workers { worker.start() }
    while control.ready.load(ordering: .acquiring) < scenario.threads { sched_yield() }
    let cpuBefore = processCPUTime()
    let switchesBefore = contextSwitches()
    let start = now()
    control.go.store(true, ordering: .releasing)
    let deadline = start + Int(seconds * 1e9)
    while case let left = deadline - now(), left > 0 {
        usleep(UInt32(min(left / 1000, 100_000)))
    }
    control.stop.store(true, ordering: .relaxed)
    let end = now()
    for worker in workers { worker.join() }
    if scenario != .sixteenOwn {
        let total = workers.reduce(0) { $0 + $1.result.acquisitions }
        precondition(shared.acquired == total, "\(L.name) let two threads in: \(shared.acquired) ≠ \(total)")
    }
    return Run(
        name: L.name, seconds: Double(end - start) / 1e9, threads: workers.map { $0.result },
        cpuSeconds: processCPUTime() - cpuBefore, contextSwitches: contextSwitches() - switchesBefore)
}
#endif
