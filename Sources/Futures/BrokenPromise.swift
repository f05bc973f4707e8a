/// The error of a future whose promise was dropped before anyone completed it.
///
/// Nothing can complete such a future any more, so instead of waiting forever its observers
/// get this error. In debug builds it names where the promise was created, which is where to
/// look for the missing `resolve` or `reject`:
///
/// ```
/// // A promise was dropped before it was completed (created at MyApp/Loader.swift:42).
/// ```
public struct BrokenPromise: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file where the promise was created (debug builds only).
    public let file: String?
    /// The line where the promise was created (debug builds only).
    public let line: Int?

    /// Creates the error for a promise made at `file`:`line`.
    public init(file: String?, line: Int?) {
        self.file = file
        self.line = line
    }

    /// What happened, and where the promise came from when that is known.
    public var description: String {
        guard let file, let line else {
            return "A promise was dropped before it was completed."
        }
        return "A promise was dropped before it was completed (created at \(file):\(line))."
    }
}
