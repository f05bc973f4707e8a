// The future's lock under contention (Benchmarks/README.md, section 13): each candidate lock
// hammered by 16 threads on one lock, by 2 threads, by 16 threads on a lock each, and by 16
// threads one of which runs at SCHED_IDLE, for a fixed wall time each, all in this process,
// the candidates' order rotated from one scenario and round to the next.
//
//     swift run -c release LockContention [--seconds 1] [--rounds 2]
#if os(Linux)
import Foundation

struct Candidate {
    let name: String
    let run: (Scenario, Double) -> Run
}

let candidates = [
    Candidate(name: SpinYieldLock.name) { measure(SpinYieldLock.self, $0, seconds: $1) },
    Candidate(name: PthreadLock.name) { measure(PthreadLock.self, $0, seconds: $1) },
    Candidate(name: AdaptivePthreadLock.name) { measure(AdaptivePthreadLock.self, $0, seconds: $1) },
    Candidate(name: StandardMutex.name) { measure(StandardMutex.self, $0, seconds: $1) },
    Candidate(name: FoundationLock.name) { measure(FoundationLock.self, $0, seconds: $1) },
    Candidate(name: SpinFutexLock.name) { measure(SpinFutexLock.self, $0, seconds: $1) },
]
let floor = Candidate(name: NoLock.name) { measure(NoLock.self, $0, seconds: $1) }

func option(_ name: String, default value: Double) -> Double {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let parsed = Double(arguments[index + 1])
    else { return value }
    return parsed
}

let contendedSeconds = option("--seconds", default: 1)
let rounds = Int(option("--rounds", default: 2))

func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

func milliseconds(_ nanoseconds: Int) -> String {
    nanoseconds >= 10_000_000 ? f(Double(nanoseconds) / 1e6, 0) : f(Double(nanoseconds) / 1e6, 2)
}

func percentile(_ sorted: [Int], _ fraction: Double) -> Int {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func describeContended(_ run: Run, reference: Double) -> String {
    let normal = run.threads.filter { !$0.idle }
    let counts = normal.map { Double($0.acquisitions) }
    let total = Double(run.threads.reduce(0) { $0 + $1.acquisitions })
    let mean = counts.reduce(0, +) / Double(counts.count)
    let deviation = (counts.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(counts.count)).squareRoot()
    let low = counts.min() ?? 0
    let high = counts.max() ?? 0
    let waits = normal.flatMap(\.waits).sorted()
    let stretch = normal.map(\.longestStretch).max() ?? 0
    let rate = total / run.seconds
    var row =
        "| \(run.name) | \(f(rate / 1e6, 2)) | \(f(rate / reference, 2)) | \(f(low / 1e3, 0))k | \(f(high / 1e3, 0))k"
        + " | \(f(low / high, 2)) | \(f(deviation / mean, 2)) | \(f(Double(percentile(waits, 0.99)) / 1e3, 1))"
        + " | \(f(Double(percentile(waits, 0.999)) / 1e3, 0)) | \(milliseconds(waits.last ?? 0)) | \(milliseconds(stretch))"
        + " | \(f(run.cpuSeconds / run.seconds, 2)) | \(f(run.cpuSeconds * 1e9 / total, 0)) | \(run.contextSwitches) |"
    if let idle = run.threads.first(where: \.idle) {
        let idleWaits = idle.waits.sorted()
        row +=
            " \(idle.acquisitions) (\(f(Double(idle.acquisitions) / total * 100, 3)) %) | \(milliseconds(idleWaits.last ?? 0))"
            + " | \(milliseconds(idle.longestStretch)) |"
    }
    return row
}

let contendedHeader = """
    | Lock | M acq/s | ÷ spin-yield | Thread min | Thread max | min/max | CV | Wait p99 µs | Wait p99.9 µs | Wait max ms \
    | Longest 64 ms | CPU s/s | CPU ns/acq | Switches |
    """
let idleHeader = " SCHED_IDLE thread: acq (share) | its wait max ms | its longest 64 ms |"

print("# LockContention: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(f(contendedSeconds)) s per contended run")
print("Waits sampled every 64th acquisition; *Longest 64*: the longest time a thread took for 64 acquisitions.")
var rotation = 0
for round in 1...rounds {
    for scenario in Scenario.allCases {
        let seconds = scenario == .sixteenOwn ? contendedSeconds / 3 : contendedSeconds
        var order = scenario == .sixteenOwn ? candidates + [floor] : candidates
        let shift = rotation % order.count
        order = Array(order[shift...]) + Array(order[..<shift])
        rotation += 1
        let measured = order.map { $0.run(scenario, seconds) }
        let runs = (candidates + [floor]).compactMap { candidate in measured.first { $0.name == candidate.name } }
        print("\n## Round \(round): \(scenario.title) (\(f(seconds, 2)) s each; run order: \(order.map(\.name).joined(separator: ", ")))\n")
        if scenario == .sixteenOwn {
            let floorNanoseconds = runs.last.map { $0.cpuSeconds * 1e9 / Double($0.threads.reduce(0) { $0 + $1.acquisitions }) } ?? 0
            print("| Lock | CPU ns per lock/unlock + section | minus the floor | M acq/s (all threads) |")
            print("|---|---:|---:|---:|")
            for run in runs {
                let total = Double(run.threads.reduce(0) { $0 + $1.acquisitions })
                let perPair = run.cpuSeconds * 1e9 / total
                print("| \(run.name) | \(f(perPair, 2)) | \(f(perPair - floorNanoseconds, 2)) | \(f(total / run.seconds / 1e6, 1)) |")
            }
        } else {
            let reference = runs.first.map { Double($0.threads.reduce(0) { $0 + $1.acquisitions }) / $0.seconds } ?? 1
            let idle = scenario == .sixteenOneIdle
            print(contendedHeader + (idle ? idleHeader : ""))
            print("|---|" + String(repeating: "---:|", count: idle ? 16 : 13))
            for run in runs { print(describeContended(run, reference: reference)) }
        }
    }
}
#else
print("LockContention measures Linux locks; it runs on Linux only.")
#endif
