import Foundation

/// Ends the test process if `operation` has not finished within `seconds`: a deadlock fails
/// the run, loudly and at once, instead of hanging CI until its own limit.
func withWatchdog<Result>(
    seconds: Int,
    _ what: String,
    _ operation: () async throws -> Result
) async rethrows -> Result {
    let finished = DispatchSemaphore(value: 0)
    let watchdog = Thread {
        if finished.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
            FileHandle.standardError.write(Data("Watchdog: \(what) did not finish within \(seconds) s; ending the process.\n".utf8))
            abort()
        }
    }
    watchdog.start()
    defer { finished.signal() }
    return try await operation()
}

/// The process's resident memory in bytes, from /proc (Linux); `nil` elsewhere.
func residentMemoryBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The process's peak resident memory since it started or since ``resetPeakResidentMemory()``
/// (`VmHWM` in `/proc/self/status`), in bytes; nil where there is no `/proc`.
func peakResidentMemoryBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return nil }
    return kibibytes * 1_024
}

/// Sets the peak that ``peakResidentMemoryBytes()`` reads back to the current resident memory
/// (writing 5 to `/proc/self/clear_refs`); false where that is not possible.
@discardableResult
func resetPeakResidentMemory() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}
