// MARK: - Registering callbacks (internal)

extension Future {
    /// Registers a combinator's callback.
    ///
    /// A callback that captures one object and nothing else (the future it derives) allocates
    /// nothing: Swift uses that object as the closure's context.
    ///
    /// - Parameters:
    ///   - retainingDependent: Counts the caller as a cancellable dependent (see
    ///     ``releaseDependent()``).
    ///   - callback: Runs once, after the result is set (read it with ``outcome(of:)``), and
    ///     returns the derived future it completed, if that has callbacks to run.
    /// - Returns: What `callback` returned, when it ran at once because the future had already
    ///   completed; the caller runs it or hands it on.
    @inlinable
    final func register(
        retainingDependent: Bool,
        _ callback: @escaping Callback
    ) -> (any PendingCallbacks)? {
        lock.lock()
        if !slot.isEmpty, !isRunningCallbacks {
            return registerCompleted(callback)
        }
        if retainingDependent {
            dependents += 1
        }
        callbacks.append(StoredCallback(callback))
        lock.unlock()
        return nil
    }

    /// Registers a callback and runs whatever it completes at once.
    @inlinable
    final func whenComplete(retainingDependent: Bool, _ callback: @escaping Callback) {
        if let pending = register(retainingDependent: retainingDependent, callback) {
            CallbackRunner.drain(pending)
        }
    }

    /// Runs `callback` for this future, which has completed and run its callbacks, at once, as a
    /// level of its own (see ``CallbackNesting``); or, when levels already nest as deep as they
    /// may, defers it (see ``deferCallback(_:to:)``). The lock must be held, and is released.
    ///
    /// - Returns: What `callback` returned, when it ran.
    @usableFromInline
    final func registerCompleted(_ callback: @escaping Callback) -> (any PendingCallbacks)? {
        let nesting = CallbackNesting.current
        guard !nesting.isAtLimit else {
            deferCallback(StoredCallback(callback), to: nesting)
            return nil
        }
        lock.unlock()
        return nesting.runLevel { callback(self) }
    }

    /// Runs a nonisolated `observer` of this future, which has completed and run its callbacks,
    /// at once, as a level of its own; or defers it, as ``registerCompleted(_:)`` does. The lock
    /// must be held, and is released.
    @inlinable @inline(never)
    final func observeCompleted(_ observer: @escaping Observer<Value>) {
        let nesting = CallbackNesting.current
        guard !nesting.isAtLimit, let outcome else {
            deferCallback(Self.callback(observing: observer), to: nesting)
            return
        }
        lock.unlock()
        nesting.runLevel { observer(outcome) }
    }

    /// Adds `callback` to the callbacks of this future, which has completed and run its
    /// callbacks, and hands the future to `nesting`'s innermost level, which runs them next, on
    /// this thread. The lock must be held, and is released.
    @usableFromInline
    final func deferCallback(_ callback: StoredCallback, to nesting: CallbackNesting) {
        isRunningCallbacks = true
        callbacks.append(callback)
        lock.unlock()
        nesting.deferCallbacks(of: self)
    }

    /// A callback that runs `observer` with the result of its future.
    @inlinable
    static func callback(observing observer: @escaping Observer<Value>) -> StoredCallback {
        StoredCallback { source in
            observer(Future.outcome(of: source))
            return nil
        }
    }
}
