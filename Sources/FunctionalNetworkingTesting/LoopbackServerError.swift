import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``LoopbackServer`` could not start.
///
/// ```swift
/// do {
///     let server = try LoopbackServer()
///     defer { server.stop() }
///     #expect(server.isRunning)
/// } catch let error as LoopbackServerError {
///     Issue.record("\(error)")
/// }
/// ```
public enum LoopbackServerError: Error, Equatable, CustomStringConvertible {
    /// A system call failed.
    ///
    /// - Parameters:
    ///   - operation: The call that failed, e.g. `"bind"`.
    ///   - code: The `errno` value it left behind.
    case system(operation: String, code: Int32)

    /// A human-readable description including the system's message for the error code.
    public var description: String {
        switch self {
        case let .system(operation, code):
            let message = String(cString: strerror(code))
            return "LoopbackServer: \(operation) failed: \(message) (errno \(code))"
        }
    }
}

extension LoopbackServerError: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
