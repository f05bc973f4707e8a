import Foundation
import Futures

// The Futures module uses no Foundation, so its errors get their `localizedDescription` here:
// without `LocalizedError`, Foundation calls any of them "The operation could not be
// completed. (Futures.BrokenPromise error 1.)". With it, `localizedDescription` says the same
// words as `description`, in every process that links this module.

extension BrokenPromise: LocalizedError {
    /// The same words as `description`: what happened, and where the promise came from.
    public var errorDescription: String? { description }
}

extension TimeoutError: LocalizedError {
    /// The same words as `description`: what did not complete within what time.
    public var errorDescription: String? { description }
}

extension EmptyRace: LocalizedError {
    /// The same words as `description`: a race needs at least one entrant.
    public var errorDescription: String? { description }
}

extension FutureCycle: LocalizedError {
    /// The same words as `description`: which handler made a future wait for itself, and how
    /// to fix it.
    public var errorDescription: String? { description }
}
