// MARK: - Cancelling

extension Future {
    /// Rejects the future with `CancellationError` if it is still pending, runs its
    /// cancellation handlers, and releases the future it was derived from.
    ///
    /// ```swift
    /// let download = session.request(.product(withID: 7))
    /// download.cancel()   // cancels the URLSession request; observers see CancellationError
    /// ```
    ///
    /// Observers isolated to the caller's actor run before this returns, as they do when a
    /// promise is resolved there (see ``Promise/resolve(with:isolation:)``).
    ///
    /// - Parameter isolation: The caller's actor, or `nil` in nonisolated code; leave it to its
    ///   default.
    /// - Returns: `true` if this call cancelled the future, `false` if it had already completed.
    @discardableResult
    public final func cancel(isolation: isolated (any Actor)? = #isolation) -> Bool {
        if isolation == nil {
            return cancelPending()
        }
        return CallbackNesting.current.whileIsolated(to: isolation) { cancelPending() }
    }

    /// ``cancel(isolation:)`` with no isolation known: the observers isolated to an actor hop.
    final func cancelPending() -> Bool {
        lock.lock()
        guard slot.isEmpty else {
            lock.unlock()
            return false
        }
        if let next = cancelLocked() {
            releaseChain(from: next)
        }
        return true
    }

    /// Cancels the pending future; the lock must be held and is released.
    ///
    /// - Returns: the upstream future to release next (the caller walks the chain in a loop,
    ///   so cancelling a long chain does not recurse).
    @usableFromInline
    final func cancelLocked() -> (any CancellationUpstream)? {
        slot.store(Result<Value, any Error>.failure(CancellationError()))
        wasCancelled = true
        let next = ownedUpstream ?? promiseUpstream?.future
        ownedUpstream = nil
        let promiseLink = promiseUpstream.take()
        let handlers = cancellationHandlers.removeAll()
        let mustRun = !callbacks.isEmpty
        isRunningCallbacks = mustRun
        lock.unlock()
        withExtendedLifetime(promiseLink) {}  // released outside the lock
        handlers.forEach { $0.run() }
        if mustRun {
            CallbackRunner.drain(completed: self)
        }
        return next
    }
}

// MARK: - Dependents and upstream links (internal)

extension Future {
    /// Counts one more cancellable dependent (a derived future or an awaiting task).
    @inlinable
    final func retainDependent() {
        lock.lock()
        if slot.isEmpty {
            dependents += 1
        }
        lock.unlock()
    }

    /// Records the future this one now waits on, so that cancelling this one releases it.
    ///
    /// If this future has already completed (say it was cancelled first), `source` is released
    /// at once.
    @inlinable
    final func setUpstream<Source>(_ source: Future<Source>) {
        lock.lock()
        guard slot.isEmpty else {
            lock.unlock()
            releaseChain(from: source)
            return
        }
        let replaced = ownedUpstream
        link(to: source)
        lock.unlock()
        withExtendedLifetime(replaced) {}  // released outside the lock
    }

    /// How many futures a wait for `source` would go through before it came back to this one,
    /// or `nil` when it does not within ``FutureCycle/longestFound`` futures: 1 when `source`
    /// is this future, 2 when `source` waits for this one, and so on. Walks the futures that
    /// `source` waits for, one lock at a time (see ``CancellationUpstream/waitedOn``).
    ///
    /// A cycle that two threads close at the same moment, each following a future the other is
    /// about to follow, can pass unseen; it then waits, as it would without this check.
    @usableFromInline
    final func cycleLength(following source: any CancellationUpstream) -> Int? {
        var current = source
        for length in 1...FutureCycle.longestFound {
            if current === self {
                return length
            }
            guard let next = current.waitedOn else {
                return nil
            }
            current = next
        }
        return nil
    }

    /// Points ``ownedUpstream`` or ``promiseUpstream`` at `source`; the lock must be held
    /// (or the future not yet shared).
    @inlinable
    final func link<Source>(to source: Future<Source>) {
        if source.isPromise {
            ownedUpstream = nil
            promiseUpstream = PromiseLink(source)
        } else {
            promiseUpstream = nil
            ownedUpstream = source
        }
    }

    /// Registers `handler` to run if the future is cancelled; runs it at once if it already
    /// was, and drops it if the future completed otherwise.
    @usableFromInline
    final func addCancellationHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        guard slot.isEmpty else {
            let cancelled = wasCancelled
            lock.unlock()
            if cancelled {
                handler()
            }
            return
        }
        cancellationHandlers.append(CancellationHandler(run: handler))
        lock.unlock()
    }
}

extension Future: CancellationUpstream {
    @usableFromInline
    final var waitedOn: (any CancellationUpstream)? {
        lock.lock()
        defer { lock.unlock() }
        return ownedUpstream ?? promiseUpstream?.future
    }

    @usableFromInline
    final func releaseDependent() -> (any CancellationUpstream)? {
        lock.lock()
        guard slot.isEmpty, dependents > 0 else {
            lock.unlock()
            return nil
        }
        dependents -= 1
        guard dependents == 0, !isPinned else {
            lock.unlock()
            return nil
        }
        return cancelLocked()
    }
}

/// A link to a future that another depends on, held the way ``Future/link(to:)`` holds one:
/// weakly when it is a ``Promise``, strongly otherwise.
@usableFromInline struct UpstreamLink: Sendable {
    @usableFromInline let owned: (any CancellationUpstream)?
    @usableFromInline weak var promise: (any CancellationUpstream)?

    @inlinable init<Source>(_ source: Future<Source>) {
        if source.isPromise {
            owned = nil
            promise = source
        } else {
            owned = source
        }
    }

    /// The future, unless it was a promise and has been freed.
    @inlinable var future: (any CancellationUpstream)? {
        owned ?? promise
    }
}

/// A weak link to a ``Promise`` that a future follows (see ``Future/promiseUpstream``).
@usableFromInline final class PromiseLink: Sendable {
    /// The promise, until it is freed.
    @usableFromInline weak let future: (any CancellationUpstream)?

    @inlinable init(_ promise: any CancellationUpstream) {
        future = promise
    }
}

/// A future that a derived future or an awaiting task depends on.
@usableFromInline protocol CancellationUpstream: AnyObject, Sendable {
    /// Drops one dependent; when none is left (and nobody observes), cancels the future.
    ///
    /// - Returns: the next future up the chain to release, when this one was cancelled.
    func releaseDependent() -> (any CancellationUpstream)?

    /// The future this one waits for, while it is pending: the one it was derived from, or
    /// the one it follows (see ``Future/cycleLength(following:)``).
    var waitedOn: (any CancellationUpstream)? { get }
}

/// Releases `source` and, as far as cancellation reaches, the futures above it — in a loop.
@usableFromInline func releaseChain(from source: any CancellationUpstream) {
    var next: (any CancellationUpstream)? = source
    while let current = next {
        next = current.releaseDependent()
    }
}
