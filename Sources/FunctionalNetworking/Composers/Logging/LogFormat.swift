import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How durations, sizes and errors are written in logs and metrics.
enum LogFormat {
    /// `0.8 ms`, `84 ms`, `1.25 s`.
    static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        switch abs(milliseconds) {
        case 1000...: return String(format: "%.2f s", milliseconds / 1000)
        case 10...: return String(format: "%.0f ms", milliseconds)
        default: return String(format: "%.1f ms", milliseconds)
        }
    }

    /// `1 byte`, `512 bytes`.
    static func bytes(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// Whether `error` means the request was cancelled.
    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? URLError, error.code == .cancelled { return true }
        return false
    }
}
