// Section 12 of Benchmarks/README.md: the five ways of reading a Server-Sent Events stream
// (StreamScenario a-e), in one process, against one LoopbackServer on 127.0.0.1, in rounds.
//
//     swift run -c release StreamComparison [--events 100000] [--rounds 5] [--shape batched|per-event]
//
// Each round runs every scenario once, in an order rotated by one each round (a b c d e, then
// b c d e a, …), after one warm-up round that is not counted. Per run it measures the wall-clock
// time from the request to the last event, the process's CPU time (user + system, the
// server's share included: the same for every scenario), and the peak resident memory: before
// each run, freed memory is handed back (`malloc_trim`) and the kernel's high-water mark is
// reset (`/proc/self/clear_refs`), so VmHWM afterwards is the run's own peak. The ratios to a
// are taken within each round, then their median and range are shown.

import Foundation
import StreamScenarios

#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var events = 100_000
    var rounds = 5
    var shape = StreamShape.batched
    var scenarios = StreamScenario.compared

    init(_ arguments: [String]) {
        var remaining = arguments.dropFirst()
        while let option = remaining.popFirst() {
            guard let value = remaining.popFirst() else { Self.usage() }
            switch option {
            case "--events": events = Self.required(Int(value))
            case "--rounds": rounds = Self.required(Int(value))
            case "--shape": shape = Self.required(StreamShape(rawValue: value))
            case "--scenarios": scenarios = value.map { Self.required(StreamScenario(rawValue: String($0))) }
            default: Self.usage()
            }
        }
    }

    static func required<Value>(_ value: Value?) -> Value {
        guard let value else { usage() }
        return value
    }

    static func usage() -> Never {
        fatalError("usage: StreamComparison [--events N] [--rounds R] [--shape batched|per-event] [--scenarios abcdefghij]")
    }
}

/// One run of one scenario.
struct Measurement {
    let seconds: Double
    let cpuSeconds: Double
    let peakBytes: Int
    let startBytes: Int
}

/// The process's memory figures from /proc/self/status, in bytes (`VmRSS`, `VmHWM`).
func memory(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        let kilobytes = line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first
        return (kilobytes.flatMap { Int($0) } ?? 0) * 1_024
    }
    return 0
}

/// glibc's `malloc_trim`, which hands freed memory back to the system (not in the Glibc module).
let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
    unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
}

/// Resets the process's peak resident memory to its current one.
func resetPeakMemory() {
    _ = mallocTrim?(0)
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// The process's CPU time so far, user and system.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

func measure(_ scenario: StreamScenario, on fixture: StreamFixture, shape: StreamShape) async throws -> Measurement {
    resetPeakMemory()
    let startBytes = memory("VmRSS")
    let cpu = cpuSeconds()
    let clock = ContinuousClock()
    let start = clock.now
    try await fixture.run(scenario, shape: shape)
    let elapsed = start.duration(to: clock.now)
    let (seconds, attoseconds) = elapsed.components
    return Measurement(
        seconds: Double(seconds) + Double(attoseconds) / 1e18,
        cpuSeconds: cpuSeconds() - cpu,
        peakBytes: memory("VmHWM"),
        startBytes: startBytes
    )
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func grouped(_ value: Double) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.maximumFractionDigits = 0
    return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
}

func fixed(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}

let options = Options(CommandLine.arguments)
let fixture = try StreamFixture(eventCount: options.events, shapes: [options.shape])
let mebibyte = 1_048_576.0
print(
    "StreamComparison: \(options.events) events of \(EventFeed.eventSize) bytes, shape \(options.shape.rawValue), \(options.rounds) rounds + 1 warm-up"
)
print("round\tscenario\tevents/s\tCPU µs/1k events\tpeak MiB\tpeak - start MiB")

var results: [StreamScenario: [Measurement]] = [:]
var ratios: [StreamScenario: [Double]] = [:]
var cpuRatios: [StreamScenario: [Double]] = [:]
for round in 0...options.rounds {
    let count = options.scenarios.count
    let order = (0..<count).map { options.scenarios[($0 + round) % count] }
    var thisRound: [StreamScenario: Measurement] = [:]
    for scenario in order {
        let measurement = try await measure(scenario, on: fixture, shape: options.shape)
        thisRound[scenario] = measurement
        let rate = Double(options.events) / measurement.seconds
        let cpu = measurement.cpuSeconds / Double(options.events) * 1e9
        let peak = Double(measurement.peakBytes) / mebibyte
        let added = Double(measurement.peakBytes - measurement.startBytes) / mebibyte
        print(
            "\(round == 0 ? "warm-up" : "\(round)")\t\(scenario.rawValue)\t\(grouped(rate))\t\(fixed(cpu, 0))\t\(fixed(peak, 1))\t\(fixed(added, 1))"
        )
    }
    guard round > 0 else { continue }
    for (scenario, measurement) in thisRound {
        results[scenario, default: []].append(measurement)
        if let floor = thisRound[.urlSessionDelegate] {
            ratios[scenario, default: []].append(floor.seconds / measurement.seconds)
            cpuRatios[scenario, default: []].append(measurement.cpuSeconds / floor.cpuSeconds)
        }
    }
}
fixture.stop()

/// `values` as "median (min–max)".
func spread(_ values: [Double], _ text: (Double) -> String) -> String {
    guard let low = values.min(), let high = values.max() else { return "—" }
    return "\(text(median(values))) (\(text(low))–\(text(high)))"
}

print("")
print("| Scenario | Events/s, median (range) | Throughput ÷ a's | CPU ns / event | CPU ÷ a's | Peak RSS | Peak − start |")
print("|---|---:|---:|---:|---:|---:|---:|")
for scenario in options.scenarios {
    guard let runs = results[scenario] else { continue }
    let rates = runs.map { Double(options.events) / $0.seconds }
    let cpu = runs.map { $0.cpuSeconds / Double(options.events) * 1e9 }
    let peak = Double(runs.map(\.peakBytes).max() ?? 0) / mebibyte
    let added = median(runs.map { Double($0.peakBytes - $0.startBytes) / mebibyte })
    let row = [
        "\(scenario.rawValue). \(scenario.summary)",
        spread(rates, grouped),
        spread(ratios[scenario] ?? [], { fixed($0) }),
        spread(cpu, grouped),
        spread(cpuRatios[scenario] ?? [], { fixed($0) }),
        "\(fixed(peak, 1)) MiB",
        "\(fixed(added, 1)) MiB",
    ]
    print("| " + row.joined(separator: " | ") + " |")
}
