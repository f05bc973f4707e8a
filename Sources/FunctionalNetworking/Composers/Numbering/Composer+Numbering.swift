import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    /// Gives every request an id and a sequence number (1, 2, 3…) that the composers below, and
    /// their logs, read from ``RequestContext/current``.
    ///
    /// Its place, ``Place/numbering``, is first: the context is set for the duration of the call
    /// below it, so everything that reads it sits below. Nothing of it is sent on the wire. Each `.numbered()` value counts
    /// on its own, so each stack made with its own `.numbered()` starts at 1; retries below it
    /// keep the request's id and number.
    ///
    /// ```swift
    /// let transport = NetworkSession.shared.transport(with:
    ///     .logged(to: { record in print(record.message) }),   // → #1 3F2A9C1E GET https://…
    ///     .retry(),
    ///     .numbered()
    /// )
    /// ```
    ///
    /// The id is a random version 4 `UUID`, unless the caller chose one with
    /// ``RequestContext/withID(_:_:)``: each `.numbered()` value draws one at random and gives
    /// its n-th request that UUID with n added to its last 48 bits, so ids never repeat within a
    /// stack and making one costs no system call. A stack used from inside another
    /// request (a token refresh, say) numbers its own requests: the inner `.numbered()` sets a
    /// new context for its call.
    public static func numbered() -> Composer {
        let counter = NumberingCounter()
        return Composer(
            at: .numbering,
            { next in
                { request in
                    try await RequestContext.$current.withValue(counter.numbering(RequestContext.current)) {
                        try await next(request)
                    }
                }
            },
            direct: { next in
                { request, context in next(request, counter.numbering(context)) }
            }
        )
    }
}

/// The count behind one `.numbered()`; owns its lock, hence `@unchecked Sendable`.
private final class NumberingCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0
    /// The random UUID the ids are made from (`UUID()` reads the system's random source, which
    /// costs microseconds; once per composer is enough).
    private let base = UUID().uuid

    /// The id of request `number`: ``base`` with `number` added to its last 48 bits (the
    /// node field, which leaves the version and variant bits alone).
    func id(for number: Int) -> UUID {
        var bytes = base
        withUnsafeMutableBytes(of: &bytes) { raw in
            var node: UInt64 = 0
            for index in 10..<16 {
                node = node << 8 | UInt64(raw[index])
            }
            node = (node &+ UInt64(truncatingIfNeeded: number)) & 0xFFFF_FFFF_FFFF
            for index in (10..<16).reversed() {
                raw[index] = UInt8(truncatingIfNeeded: node)
                node >>= 8
            }
        }
        return UUID(uuid: bytes)
    }

    /// `context` with the next number, and an id: an id chosen with `withID` (an id without a
    /// number) is kept; a call already numbered by a stack above gets a new id from this stack.
    func numbering(_ context: RequestContext) -> RequestContext {
        let number = next()
        var context = context
        if context.id == nil || context.number != nil {
            context.id = id(for: number)
        }
        context.number = number
        return context
    }

    /// The next number: 1 the first time.
    func next() -> Int {
        lock.withLock {
            last += 1
            return last
        }
    }
}
