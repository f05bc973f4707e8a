// MARK: - The actor a completion runs on

extension CallbackNesting {
    /// The actor that the code completing futures on this thread is isolated to, when the
    /// compiler has proven it; `nil` when nothing is known.
    ///
    /// The rule, kept here and nowhere else: an observer isolated to an actor runs in place, in
    /// registration order with the other callbacks, when the future completes in code isolated
    /// to that same actor; otherwise it hops there in a task. "Isolated to that actor" is what
    /// the completer's `#isolation` says (``Promise/resolve(with:isolation:)`` and the other
    /// completions take it as an `isolated` parameter): the compiler proves it, the same way
    /// on every platform, and no executor is asked. While such a completion runs its callbacks,
    /// ``whileIsolated(to:_:)`` records the actor here; every callback it runs, and everything
    /// they run in turn on this thread, is a synchronous call from the completer, and a
    /// synchronous call never leaves the executor it was made on: the actor's job stays on
    /// this thread's stack, holding the actor, until the completer returns (a closure that
    /// `DispatchQueue.sync` runs meanwhile included). So while the record stands, nothing else
    /// runs on that actor, and a callback that finds its observer's actor here may call the
    /// observer directly: the call crosses no isolation. ``Future/cancel(isolation:)`` records
    /// its caller's actor the same way.
    ///
    /// Why not ask at run time instead, to cover a nonisolated completer that happens to run on
    /// the actor: the standard library has no public test that answers without trapping
    /// (`assumeIsolated` and `preconditionIsolated` trap, `SerialExecutor.checkIsolated()`
    /// traps, `isIsolatingCurrentContext()` is for an executor to implement, not a question
    /// about the current task's executor); and the main thread is not the main actor: on Linux,
    /// and on Apple platforms in a process that calls `dispatch_main()`, a worker thread drains
    /// the main queue while the main thread is parked. A completion whose isolation the compiler
    /// does not know (nonisolated code, a `@Sendable` closure, a future dropped while pending)
    /// leaves the record as it is, so its isolated observers run in place only when an
    /// enclosing completion on this thread proved the actor; otherwise they hop, which is
    /// always sound, only later.
    @inlinable var isolation: ObjectIdentifier? {
        state.pointee.isolation
    }

    /// Runs `body` with ``isolation`` set to `actor`, the caller's isolation (an `isolated`
    /// parameter, so only the compiler's proof can be passed), and sets it back afterwards;
    /// when the caller is nonisolated (`nil`), leaves it as it is.
    @inlinable
    func whileIsolated<Result>(to actor: isolated (any Actor)?, _ body: () -> Result) -> Result {
        guard let actor else {
            return body()
        }
        let outer = state.pointee.isolation
        state.pointee.isolation = ObjectIdentifier(actor)
        defer { state.pointee.isolation = outer }
        return body()
    }

    /// Whether callbacks on this thread run isolated to `actor` (see ``isolation``).
    @inlinable
    static func isRunningIsolated(to actor: any Actor) -> Bool {
        current.isolation == ObjectIdentifier(actor)
    }
}
