import Foundation
import Testing

/// What a finished shell command left.
struct ShellRun {
    /// The exit status, or 128 + the signal's number when a signal ended it.
    let status: Int32
    let output: String
    let errors: String
}

/// Runs `command` with `/bin/sh -c`, its output and errors collected in temporary files, and
/// kills it after `limit`.
///
/// Started with `posix_spawn`, not Foundation's `Process`: on Linux, `Process.run()` reads past
/// the end of a heap buffer while it lists `/proc/self/fd` (AddressSanitizer reports it inside
/// `findMaximumOpenFromProcSelfFD`), which can crash the test process.
func runShell(_ command: String, limit: Duration = .seconds(30)) async throws -> ShellRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shell-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outputPath = folder.appendingPathComponent("out").path
    let errorsPath = folder.appendingPathComponent("err").path

    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

    let words: [String] = ["/bin/sh", "-c", command]
    let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
    let environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map {
        strdup("\($0.key)=\($0.value)")
    }
    defer { (arguments + environment).forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments + [nil], environment + [nil])
    try #require(spawned == 0, "posix_spawn failed with \(spawned): \(command)")

    var status: Int32 = 0
    let deadline = ContinuousClock.now + limit
    while waitpid(pid, &status, WNOHANG) == 0 {
        if ContinuousClock.now > deadline {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            Issue.record("The command did not finish in \(limit): \(command)")
            break
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    let signal = status & 0x7f
    return ShellRun(
        status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
        output: contentsOfFile(atPath: outputPath),
        errors: contentsOfFile(atPath: errorsPath)
    )
}

/// The text of the file at `path`, read with `read(2)`: FoundationEssentials' file reading leaks
/// its buffer for an empty file, which LeakSanitizer reports.
func contentsOfFile(atPath path: String) -> String {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return "" }
    defer { close(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
