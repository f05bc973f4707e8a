// MARK: - Observers isolated to an actor

extension Future {
    /// Registers `observer`, isolated to `actor`, on behalf of code isolated to `isolation`
    /// (see ``observe(isolation:_:)``).
    ///
    /// When the caller is on `actor`, the observer runs at once if the future has completed and
    /// no earlier observer is still on its way to an actor. Otherwise it waits for the future:
    /// completed by code isolated to `actor`, it runs in place among the other callbacks, before
    /// the completing call returns (see ``CallbackNesting/isolation``, which holds the rule);
    /// completed elsewhere, it runs in a task that is enqueued on `actor` then. Such tasks are
    /// made isolated to the actor (not made elsewhere and hopping there), so the actor receives
    /// them in the order the future ran its callbacks: registration order.
    @usableFromInline
    final func observe(
        from isolation: isolated (any Actor)?,
        isolatedTo actor: any Actor,
        _ observer: IsolatedObserver<Value>
    ) {
        let callerIsOnActor = isolation.map { ObjectIdentifier($0) == ObjectIdentifier(actor) } ?? false
        lock.lock()
        isPinned = true
        if callerIsOnActor, hopsInFlight == 0, !isRunningCallbacks, let outcome {
            lock.unlock()
            // The caller is isolated to the observer's actor: the call crosses no isolation.
            observer.synchronous(outcome)
            return
        }
        lock.unlock()
        guard callerIsOnActor else {
            whenComplete(retainingDependent: false) { [weak self] source in
                if CallbackNesting.isRunningIsolated(to: actor) {
                    // Completed on the observer's actor (see `CallbackNesting.isolation`).
                    observer.synchronous(Future.outcome(of: source))
                    return nil
                }
                let future = unsafeDowncast(source, to: Future<Value>.self)
                future.beginHop()
                Self.hop(observer.function, to: actor, with: Future.outcome(of: source), endingHopOf: self)
                return nil
            }
            return
        }
        // The task's operation is made here, on the actor, so that it is isolated to it: a
        // closure that uses `isolation` is. It reads the result from `delivery`.
        let delivery = Delivery<Value>()
        let operation = Self.operation { [weak self] in
            _ = isolation
            guard let result = delivery.take() else { return }
            await observer.function(result)
            self?.endHop()
        }
        whenComplete(retainingDependent: false) { source in
            if CallbackNesting.isRunningIsolated(to: actor) {
                // Completed on the observer's actor (see `CallbackNesting.isolation`).
                observer.synchronous(Future.outcome(of: source))
                return nil
            }
            let future = unsafeDowncast(source, to: Future<Value>.self)
            future.beginHop()
            delivery.put(Future.outcome(of: source))
            Task(operation: operation)
            return nil
        }
    }

    /// Runs `observer`, isolated to `actor`, with `result` in a task on that actor, for a caller
    /// that is not on it. A main-actor observer's task is made isolated to the main actor, so
    /// it is enqueued there in order; for another actor the task starts elsewhere and hops.
    @usableFromInline
    static func hop(
        _ observer: @escaping @isolated(any) @Sendable (Result<Value, any Error>) -> Void,
        to actor: any Actor,
        with result: Result<Value, any Error>,
        endingHopOf future: Future<Value>?
    ) {
        weak let future = future
        if ObjectIdentifier(actor) == ObjectIdentifier(MainActor.shared) {
            Task { @MainActor in
                await observer(result)
                future?.endHop()
            }
        } else {
            Task {
                await observer(result)
                future?.endHop()
            }
        }
    }

    /// Returns `operation`, which is isolated to the caller's actor when it uses the caller's
    /// `isolated` parameter.
    @usableFromInline
    static func operation(
        @_inheritActorContext _ operation: @escaping @isolated(any) @Sendable () async -> Void
    ) -> @isolated(any) @Sendable () async -> Void {
        operation
    }

    /// Counts an observer that is on its way to an actor.
    @usableFromInline
    final func beginHop() {
        lock.lock()
        hopsInFlight += 1
        lock.unlock()
    }

    /// Counts an observer that has run on its actor.
    @usableFromInline
    final func endHop() {
        lock.lock()
        hopsInFlight -= 1
        lock.unlock()
    }
}

/// Carries a future's result to an observer's task, which is made before the result exists.
@usableFromInline
final class Delivery<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var result: Result<Value, any Error>?

    @usableFromInline init() {}

    /// Stores the result; called once, before the task starts.
    @usableFromInline func put(_ result: Result<Value, any Error>) {
        lock.withLock { self.result = result }
    }

    /// The result, taken out.
    @usableFromInline func take() -> Result<Value, any Error>? {
        lock.withLock {
            defer { result = nil }
            return result
        }
    }
}
