/// A registered callback, given the future that completed. Combinators create callbacks in
/// their own (specialised) code, so that the loop running them needs to know nothing of the
/// future's value type.
@usableFromInline typealias Callback = @Sendable (_ source: AnyObject) -> (any PendingCallbacks)?

/// An observer of a `Future<Value>` that may run on any thread.
@usableFromInline typealias Observer<Value> = @Sendable (Result<Value, any Error>) -> Void

/// An entry of a future's callback list.
///
/// A struct keeps the closure in its own calling convention: a bare closure stored in the
/// generic ``InlineList`` would be re-abstracted through a thunk, one more allocation per
/// callback. An observer is stored as a callback that calls it: that closure's context (the
/// observer) is one allocation per observer, the price of keeping every entry a plain closure.
@usableFromInline
struct StoredCallback: Sendable {
    @usableFromInline let run: Callback

    @inlinable init(_ run: @escaping Callback) {
        self.run = run
    }

    /// Runs the callback for `source`, which has completed.
    ///
    /// - Returns: The derived future the callback completed, if that has callbacks to run.
    @inlinable func callAsFunction(_ source: AnyObject) -> (any PendingCallbacks)? {
        run(source)
    }
}

/// A cancellation handler as the list stores it (see ``StoredCallback``).
@usableFromInline
struct CancellationHandler: Sendable {
    @usableFromInline let run: @Sendable () -> Void

    @inlinable init(run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
