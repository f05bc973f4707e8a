/// A value that will be available later: the result of work that has already started.
///
/// A `Future` is completed exactly once, with a value or an error. Observe it with
/// ``observe(_:)``, transform it with ``map(_:)`` and ``flatMap(_:)``, or `await` its
/// ``value``. Create one with a ``Promise`` (the writable side), with ``init(value:)`` /
/// ``init(error:)`` for results you already have, or with ``init(priority:operation:)`` to run
/// async work.
///
/// ```swift
/// let promise = Promise<Data>()
/// let future: Future<Data> = promise
/// future.observe { result in
///     switch result {
///     case .success(let data): use(data)
///     case .failure(let error): report(error)
///     }
/// }
/// promise.resolve(with: data)
/// ```
///
/// ## The contract
///
/// - Futures are eager: a future stands for work that is already under way. To describe work
///   that has not started yet, use a function that returns a future, `() -> Future<Value>`
///   (which is what ``combine(_:with:)`` produces).
/// - The first completion wins; later ones are ignored.
/// - Observers run exactly once, in the order they were registered, outside any lock, on the
///   thread that completed the future — or at once, on the calling thread, when the future has
///   already completed. Use ``observe(on:_:)`` to pick a `DispatchQueue`.
/// - ``cancel()`` rejects a pending future with `CancellationError` and runs its cancellation
///   handlers (see ``Promise/onCancel(_:)``). Cancellation flows upstream: cancelling a future
///   made by `map`, `flatMap` and the other combinators releases the future it was made from,
///   which is cancelled once every future derived from it, and every `Task` awaiting its
///   ``value``, has been cancelled. A plain ``observe(_:)`` is an interest that is never
///   withdrawn, so a future with an observer is only cancelled by calling ``cancel()`` on it.
/// - Chains of any length complete without growing the stack.
///
/// - Note: `Future` is `Sendable`: it guards its state with a lock, so it may be completed,
///   observed and cancelled from any thread. Its values must be `Sendable` too, and every
///   closure it stores is `@Sendable`, because it may run on another thread.
public class Future<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var outcome: Result<Value, any Error>?
    private var callbacks = InlineList<Callback>()
    private var isRunningCallbacks = false
    private var cancellationHandlers = InlineList<@Sendable () -> Void>()
    private var wasCancelled = false
    private var dependents = 0
    private var isPinned = false
    private weak var upstream: (any CancellationUpstream)?

    /// Creates a pending future; only this module can complete one directly.
    init() {}

    /// Creates a future that has already succeeded with `value`.
    ///
    /// ```swift
    /// let ready = Future(value: Product(id: 7, name: "iPad Pro"))
    /// ```
    public convenience init(value: Value) {
        self.init()
        outcome = .success(value)
    }

    /// Creates a future that has already failed with `error`.
    public convenience init(error: any Error) {
        self.init()
        outcome = .failure(error)
    }

    /// Creates a future that has already completed with `result`.
    public convenience init(result: Result<Value, any Error>) {
        self.init()
        outcome = result
    }

    // MARK: - Reading the state

    /// The result, or `nil` while the future is pending.
    public var result: Result<Value, any Error>? {
        lock.withLock { outcome }
    }

    /// Whether the future has not completed yet.
    public var isPending: Bool {
        lock.withLock { outcome == nil }
    }

    /// Whether the future was completed by ``cancel()`` (directly, or because every future
    /// derived from it was cancelled).
    public var isCancelled: Bool {
        lock.withLock { wasCancelled }
    }

    // MARK: - Observing

    /// Registers `observer` to run once with the result.
    ///
    /// Observers run in registration order, outside any lock, on the thread that completes the
    /// future. If the future has already completed, `observer` runs at once, before this
    /// method returns.
    ///
    /// ```swift
    /// loader(id).observe { result in
    ///     switch result {
    ///     case .success(let product): show(product)
    ///     case .failure(let error): show(error)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter observer: Called exactly once with the future's result.
    /// - Note: Observing is an interest that cannot be withdrawn: a future with an observer is
    ///   not cancelled when the futures derived from it are. Call ``cancel()`` to cancel it.
    public func observe(_ observer: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        lock.lock()
        isPinned = true
        if let outcome, !isRunningCallbacks {
            lock.unlock()
            observer(outcome)
            return
        }
        callbacks.append(.observer(observer))
        lock.unlock()
    }

    // MARK: - Cancelling

    /// Rejects the future with `CancellationError` if it is still pending, runs its
    /// cancellation handlers, and releases the future it was derived from.
    ///
    /// ```swift
    /// let download = session.request(.product(withID: 7))
    /// download.cancel()   // cancels the URLSession request; observers see CancellationError
    /// ```
    ///
    /// - Returns: `true` if this call cancelled the future, `false` if it had already completed.
    @discardableResult
    public func cancel() -> Bool {
        lock.lock()
        guard outcome == nil else {
            lock.unlock()
            return false
        }
        if let next = cancelLocked() {
            releaseChain(from: next)
        }
        return true
    }

    // MARK: - Completing (internal)

    /// Completes the future and runs its callbacks.
    ///
    /// - Returns: `false` if the future had already completed.
    @discardableResult
    func complete(with result: Result<Value, any Error>) -> Bool {
        switch completeDeferringCallbacks(with: result) {
        case .alreadyCompleted:
            return false
        case .completed(let pending):
            if let pending {
                CallbackRunner.drain(pending)
            }
            return true
        }
    }

    /// What setting a result did.
    enum Completion {
        /// Another completion came first; nothing changed.
        case alreadyCompleted
        /// The result is set; the callbacks, if any, wait for the caller to run them.
        case completed((any PendingCallbacks)?)

        /// The future to hand to a ``CallbackRunner``, if any.
        var pending: (any PendingCallbacks)? {
            if case .completed(let pending) = self { return pending }
            return nil
        }
    }

    /// Sets the result without running callbacks, so that a callback completing a derived
    /// future hands it back to the running loop instead of nesting a stack frame.
    func completeDeferringCallbacks(with result: Result<Value, any Error>) -> Completion {
        lock.lock()
        guard outcome == nil else {
            lock.unlock()
            return .alreadyCompleted
        }
        outcome = result
        upstream = nil
        let handlers = cancellationHandlers.removeAll()
        let mustRun = !callbacks.isEmpty
        isRunningCallbacks = mustRun
        lock.unlock()
        withExtendedLifetime(handlers) {}  // released outside the lock
        return .completed(mustRun ? self : nil)
    }

    /// Cancels the pending future; the lock must be held and is released.
    ///
    /// - Returns: the upstream future to release next (the caller walks the chain in a loop,
    ///   so cancelling a long chain does not recurse).
    private func cancelLocked() -> (any CancellationUpstream)? {
        outcome = .failure(CancellationError())
        wasCancelled = true
        let next = upstream
        upstream = nil
        let handlers = cancellationHandlers.removeAll()
        let mustRun = !callbacks.isEmpty
        isRunningCallbacks = mustRun
        lock.unlock()
        handlers.forEach { $0() }
        if mustRun {
            CallbackRunner.drain(self)
        }
        return next
    }

    // MARK: - Callbacks and dependents (internal)

    /// A registered callback: a user's observer, or a combinator's continuation that completes
    /// a derived future and hands it back for running.
    enum Callback: Sendable {
        case observer(@Sendable (Result<Value, any Error>) -> Void)
        case continuation(@Sendable (Result<Value, any Error>) -> (any PendingCallbacks)?)
    }

    /// Registers a combinator's continuation.
    ///
    /// - Parameters:
    ///   - retainingDependent: Counts the caller as a cancellable dependent (see
    ///     ``releaseDependent()``).
    ///   - continuation: Runs once with the result and returns the future it completed.
    /// - Returns: What `continuation` returned, when it ran at once because the future had
    ///   already completed; the caller runs it or hands it on.
    func register(
        retainingDependent: Bool,
        _ continuation: @escaping @Sendable (Result<Value, any Error>) -> (any PendingCallbacks)?
    ) -> (any PendingCallbacks)? {
        lock.lock()
        if let outcome, !isRunningCallbacks {
            lock.unlock()
            return continuation(outcome)
        }
        if retainingDependent {
            dependents += 1
        }
        callbacks.append(.continuation(continuation))
        lock.unlock()
        return nil
    }

    /// Registers a continuation and runs whatever it completes at once.
    func whenComplete(
        retainingDependent: Bool,
        _ continuation: @escaping @Sendable (Result<Value, any Error>) -> (any PendingCallbacks)?
    ) {
        if let pending = register(retainingDependent: retainingDependent, continuation) {
            CallbackRunner.drain(pending)
        }
    }

    /// Counts one more cancellable dependent (a derived future or an awaiting task).
    func retainDependent() {
        lock.withLock {
            if outcome == nil {
                dependents += 1
            }
        }
    }

    /// Records the future this one was derived from, so that cancelling this one releases it.
    ///
    /// If this future has already completed (say it was cancelled first), `source` is released
    /// at once.
    func setUpstream(_ source: some CancellationUpstream) {
        lock.lock()
        guard outcome == nil else {
            lock.unlock()
            releaseChain(from: source)
            return
        }
        upstream = source
        lock.unlock()
    }

    /// Registers `handler` to run if the future is cancelled; runs it at once if it already
    /// was, and drops it if the future completed otherwise.
    func addCancellationHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        guard outcome == nil else {
            let cancelled = wasCancelled
            lock.unlock()
            if cancelled {
                handler()
            }
            return
        }
        cancellationHandlers.append(handler)
        lock.unlock()
    }
}

// MARK: - The runner's and the chain's view of a future

extension Future: PendingCallbacks {
    func runCallbacks(into runner: inout CallbackRunner) {
        while true {
            lock.lock()
            guard let outcome, !callbacks.isEmpty else {
                isRunningCallbacks = false
                lock.unlock()
                return
            }
            let batch = callbacks.removeAll()
            lock.unlock()
            batch.forEach { callback in
                switch callback {
                case .observer(let observer):
                    observer(outcome)
                case .continuation(let continuation):
                    if let next = continuation(outcome) {
                        runner.push(next)
                    }
                }
            }
        }
    }
}

extension Future: CancellationUpstream {
    func releaseDependent() -> (any CancellationUpstream)? {
        lock.lock()
        guard outcome == nil, dependents > 0 else {
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

/// A future that a derived future or an awaiting task depends on.
protocol CancellationUpstream: AnyObject, Sendable {
    /// Drops one dependent; when none is left (and nobody observes), cancels the future.
    ///
    /// - Returns: the next future up the chain to release, when this one was cancelled.
    func releaseDependent() -> (any CancellationUpstream)?
}

/// Releases `source` and, as far as cancellation reaches, the futures above it — in a loop.
func releaseChain(from source: any CancellationUpstream) {
    var next: (any CancellationUpstream)? = source
    while let current = next {
        next = current.releaseDependent()
    }
}
