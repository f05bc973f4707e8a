import Foundation
import Testing

/// How many of the process's open file descriptors refer to the file at `url`, from
/// `/proc/self/fd` (Linux); `nil` where there is no `/proc`.
func openDescriptors(of url: URL) -> Int? {
    let folder = "/proc/self/fd"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    let path = url.resolvingSymlinksInPath().path
    return names.count { name in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) == path
    }
}

/// The ids of the process's threads named `name`, from `/proc/self/task` (Linux); `nil` where
/// there is no `/proc`.
func threads(named name: String) -> [String]? {
    let folder = "/proc/self/task"
    guard let ids = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    return ids.filter { id in
        let comm = try? String(contentsOfFile: "\(folder)/\(id)/comm", encoding: .utf8)
        return comm?.trimmingCharacters(in: .newlines) == name
    }
}

/// The names of the process's threads, from `/proc/self/task/<id>/comm`, for a failure's message.
func threadNames() -> [String] {
    let folder = "/proc/self/task"
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return ids.compactMap { try? String(contentsOfFile: "\(folder)/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .newlines) }
}

/// The processor time thread `id` has used, user and system, in clock ticks, from
/// `/proc/self/task/<id>/stat`; `nil` once the thread is gone or where there is no `/proc`.
func processorTicks(ofThread id: String) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return nil }
    // After the name in parentheses: state is field 3, utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}

/// A real-time limit of a wait that only stops a bug from hanging the run: `limit`, or four
/// times it when `.ci/run` runs the suite under a sanitizer (`FUNCTIONAL_NETWORKING_SANITIZER`
/// set), where the whole suite runs about three times slower on its two threads and waits of
/// 30 s ran out (35–38 s) in tests that take under a second alone.
func underSanitizer(_ limit: Duration) -> Duration {
    ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_SANITIZER"] == nil ? limit : limit * 4
}

/// Waits until `condition` holds, looking every 10 ms, and fails the test when it still does
/// not after `limit` (four times it under a sanitizer).
func waitUntil(
    within limit: Duration = .seconds(30), _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let limit = underSanitizer(limit)
    let deadline = ContinuousClock.now + limit
    while !condition() {
        try #require(ContinuousClock.now < deadline, "Timed out after \(limit) waiting until \(what)", sourceLocation: sourceLocation)
        try await Task.sleep(for: .milliseconds(10))
    }
}
