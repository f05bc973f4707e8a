// MARK: - Completing (internal)

extension Future {
    /// Completes the future and runs its callbacks.
    ///
    /// - Returns: `false` if the future had already completed.
    @inlinable @discardableResult
    final func settle(with result: Result<Value, any Error>) -> Bool {
        let (completed, mustRun) = setResult(result)
        if mustRun {
            CallbackRunner.drain(completed: self)
        }
        return completed
    }

    /// Completes the future and runs its callbacks, for a caller isolated to `isolation`: the
    /// observers isolated to that actor run in place (see ``CallbackNesting/isolation``).
    /// Nonisolated callers (`nil`) take ``settle(with:)`` unchanged.
    ///
    /// - Returns: `false` if the future had already completed.
    @inlinable @discardableResult
    final func settle(with result: Result<Value, any Error>, isolation: isolated (any Actor)?) -> Bool {
        if isolation == nil {
            return settle(with: result)
        }
        return settle(with: result, isolatedTo: isolation)
    }

    /// ``settle(with:isolation:)`` for a caller on an actor.
    @usableFromInline @inline(never)
    final func settle(with result: Result<Value, any Error>, isolatedTo actor: isolated (any Actor)?) -> Bool {
        let (completed, mustRun) = setResult(result)
        if mustRun {
            CallbackNesting.current.whileIsolated(to: actor) {
                CallbackRunner.drain(completed: self)
            }
        }
        return completed
    }

    /// Sets the result without running callbacks, so that a callback completing a derived
    /// future hands it back to the running loop instead of nesting a stack frame.
    @inlinable
    final func completeDeferringCallbacks(with result: Result<Value, any Error>) -> Completion {
        let (completed, mustRun) = setResult(result)
        guard completed else {
            return .alreadyCompleted
        }
        return .completed(mustRun ? self : nil)
    }

    /// Sets the result, unless the future has completed already, without running callbacks.
    ///
    /// - Returns: Whether this call completed the future, and whether it has callbacks to run
    ///   (the caller runs them, or hands the future to the running loop).
    @inlinable
    final func setResult(_ result: Result<Value, any Error>) -> (completed: Bool, mustRun: Bool) {
        lock.lock()
        guard slot.isEmpty else {
            lock.unlock()
            return (false, false)
        }
        slot.store(result)
        let released = ownedUpstream
        ownedUpstream = nil
        let promiseLink = promiseUpstream.take()
        // Dropped, since the future was not cancelled: only touched when there are some.
        var handlers: InlineList<CancellationHandler>?
        if !cancellationHandlers.isEmpty {
            handlers = cancellationHandlers.removeAll()
        }
        let mustRun = !callbacks.isEmpty
        isRunningCallbacks = mustRun
        lock.unlock()
        withExtendedLifetime((handlers, released, promiseLink)) {}  // released outside the lock
        return (true, mustRun)
    }
}

/// What setting a result did.
@usableFromInline
enum Completion {
    /// Another completion came first; nothing changed.
    case alreadyCompleted
    /// The result is set; the callbacks, if any, wait for the caller to run them.
    case completed((any PendingCallbacks)?)

    /// The future to hand to a ``CallbackRunner``, if any.
    @inlinable var pending: (any PendingCallbacks)? {
        if case .completed(let pending) = self { return pending }
        return nil
    }
}

// MARK: - Running the callbacks (internal)

extension Future: PendingCallbacks {
    @usableFromInline
    final func runCallbacks(into runner: inout CallbackRunner) {
        while true {
            lock.lock()
            guard !callbacks.isEmpty else {
                isRunningCallbacks = false
                lock.unlock()
                return
            }
            // Taken out of the list rather than copied: no retain and release of each entry.
            // The rest (of a future with several callbacks) is only touched when it holds some.
            let (first, rest) = callbacks.takeAll()
            lock.unlock()
            // Consumed, not copied: a copy would retain and release the closure.
            switch consume first {
            case .some(let callback):
                if let next = callback(self) {
                    runner.push(next)
                }
            case .none:
                break
            }
            if let rest {
                for callback in rest {
                    if let next = callback(self) {
                        runner.push(next)
                    }
                }
            }
        }
    }
}
