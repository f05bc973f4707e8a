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
            isRunningCallbacks = true
            store(observer)
            lock.unlock()
            nesting.deferCallbacks(of: self)
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

    /// Adds `observer` to the callbacks, to run in its place among them (see
    /// ``firstObserver`` and ``laterObservers``). The lock must be held.
    @inlinable
    final func store(_ observer: @escaping Observer<Value>) {
        guard hasStoredFirstObserver else {
            hasStoredFirstObserver = true
            firstObserver = observer
            callbacks.append(StoredCallback(Self.runFirstObserver))
            return
        }
        if laterObservers == nil {
            // Room for several at once: each growth of the array copies it.
            laterObservers = []
            laterObservers?.reserveCapacity(16)
        }
        laterObservers?.append(ObserverEntry(observer))
        callbacks.append(StoredCallback(Self.runLaterObserver))
    }

    /// The entry that runs the ``firstObserver`` of its future. Specialised, it captures
    /// nothing, so storing it allocates nothing.
    @inlinable
    static var runFirstObserver: Callback {
        { source in
            let future = unsafeDowncast(source, to: Future<Value>.self)
            future.firstObserver.take()?(Future.outcome(of: future))
            return nil
        }
    }

    /// The entry that runs the next of the later observers of its future (see
    /// ``runningObservers``).
    @inlinable
    static var runLaterObserver: Callback {
        { source in
            let future = unsafeDowncast(source, to: Future<Value>.self)
            future.takeRunningObserver()?(Future.outcome(of: future))
            return nil
        }
    }

    /// Takes the next of ``runningObservers``, first moving ``laterObservers`` there (under the
    /// lock) when the entries have taken every running observer.
    @inlinable
    final func takeRunningObserver() -> Observer<Value>? {
        if runningObservers == nil {
            lock.lock()
            runningObservers = laterObservers.take()
            lock.unlock()
            nextRunningObserver = 0
        }
        guard let running = runningObservers, nextRunningObserver < running.count else {
            return nil
        }
        let observer = running[nextRunningObserver].function
        nextRunningObserver += 1
        if nextRunningObserver == running.count {
            runningObservers = nil
        }
        return observer
    }
}

/// An observer in ``Future/laterObservers``: a struct keeps the closure in its own calling
/// convention, where a bare closure in an array would be re-abstracted through a thunk (an
/// allocation).
@usableFromInline
struct ObserverEntry<Value: Sendable>: Sendable {
    @usableFromInline let function: Observer<Value>

    @inlinable init(_ function: @escaping Observer<Value>) {
        self.function = function
    }
}
