import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Gives every request an id and a sequence number (1, 2, 3…) that the composers below, and
    /// their logs, read from ``RequestContext/current``.
    ///
    /// Put it **first**: the context is set for the duration of the call below it, so composers
    /// above it cannot see it. Nothing of it is sent on the wire. Each `.numbered()` value counts
    /// on its own, so each stack made with its own `.numbered()` starts at 1; retries below it
    /// keep the request's id and number.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with:
    ///     .numbered(),
    ///     .logged(to: { record in print(record.message) }),   // → #1 3F2A9C1E GET https://…
    ///     .retry()
    /// )
    /// ```
    ///
    /// The id is a new `UUID`, unless the caller chose one with
    /// ``RequestContext/withID(_:_:)``. A stack used from inside another
    /// request (a token refresh, say) numbers its own requests: the inner `.numbered()` sets a
    /// new context for its call.
    public static func numbered() -> Composer {
        let counter = NumberingCounter()
        return Composer { next in
            { request in
                let context = RequestContext(id: RequestContext.chosenID ?? UUID(), number: counter.next())
                return try await RequestContext.$chosenID.withValue(nil) {
                    try await RequestContext.$current.withValue(context) {
                        try await next(request)
                    }
                }
            }
        }
    }
}

/// The count behind one `.numbered()`; owns its lock, hence `@unchecked Sendable`.
private final class NumberingCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0

    /// The next number: 1 the first time.
    func next() -> Int {
        lock.withLock {
            last += 1
            return last
        }
    }
}
