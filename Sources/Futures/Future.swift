/// A value that will be available later: the result of work that has already started.
///
/// A `Future` is completed exactly once, with a value or an error. Observe it with
/// ``observe(isolation:_:)``, transform it with ``map(_:)`` and ``flatMap(_:)``, or `await` its
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
///   (which is what ``combine(_:with:)-3gv1n`` produces).
/// - The first completion wins; later ones are ignored.
/// - Observers run exactly once, in the order they were registered, outside any lock, on the
///   thread that completed the future — or at once, on the calling thread, when the future has
///   already completed. An observer registered on an actor (the main actor of a view
///   controller) is isolated to it: it runs at once when the future has completed; when it
///   completes later, in its place among the others before the completing call returns if
///   the completing code is isolated to that actor, and in a task on that actor otherwise.
///   Use ``observe(on:_:)`` to pick a `DispatchQueue`.
/// - ``cancel(isolation:)`` rejects a pending future with `CancellationError` and runs its cancellation
///   handlers (see ``Promise/onCancel(_:)``). Cancellation flows upstream: cancelling a future
///   made by `map`, `flatMap` and the other combinators releases the future it was made from,
///   which is cancelled once every future derived from it, and every `Task` awaiting its
///   ``value``, has been cancelled. A plain ``observe(isolation:_:)`` is an interest that is never
///   withdrawn, so a future with an observer is only cancelled by calling ``cancel(isolation:)`` on it.
/// - Chains of any length complete without growing the stack: those made with `map` and
///   `flatMap`, and those whose observers complete or observe other futures. Such nested work
///   runs at once, as a plain call would, until 16 runs of callbacks nest on one thread;
///   deeper work waits until the callback in progress returns, and then runs on the same
///   thread, before the outermost completion (or `observe`) returns.
/// - A `flatMap`, `flatMapError` or `retry` handler that returns the future it completes, or
///   one that waits for it, fails that future with ``FutureCycle`` instead of leaving it to
///   wait for itself.
///
/// - Note: `Future` is `Sendable`: it guards its state with a lock, so it may be completed,
///   observed and cancelled from any thread. Its values must be `Sendable` too, and every
///   closure it stores is `@Sendable`, because it may run on another thread (an observer
///   isolated to an actor runs on that actor).
public class Future<Value: Sendable>: @unchecked Sendable {
    // Every stored property below is guarded by `lock`, which is what makes the dynamic
    // exclusivity checks redundant: `@exclusivity(unchecked)` drops them (a large share of a
    // promise's life; Benchmarks/README.md has the figures).
    @usableFromInline final let lock = Lock()
    /// The result of a completed future, as raw bytes (see ``ValueSlot``): the value of a
    /// future that succeeded when it fits them (else a ``ValueBox`` holding it), or the error of
    /// one that failed. Written once, under the lock; read under the lock, or by callbacks,
    /// which run only after the lock has shown it set.
    ///
    /// Not a `Value?`, an enum or a `Result`: the future's `deinit` is never specialised, and
    /// destroying a stored property whose type is generic over `Value` (other than `Value`
    /// itself) looks that type's metadata up in the runtime's cache for every future, a large
    /// share of a `map` step. Raw bytes need no look-up, and no code to destroy
    /// them while the future is pending or once its result has been destroyed by `deinit`
    /// (separate optional fields for the box and the error cost a release call each in every
    /// future's `deinit`, even when empty); the value in them is destroyed through `Value`'s
    /// own metadata, which the future has.
    @exclusivity(unchecked) @usableFromInline final var valueSlot = ValueSlot()
    /// Whether the future succeeded (its value is in ``valueSlot``, or in a box there).
    @exclusivity(unchecked) @usableFromInline final var hasValue = false
    /// Whether the result is set; a plain flag, so that code not specialised for `Value` can
    /// test it without looking up any metadata.
    @exclusivity(unchecked) @usableFromInline final var isCompleted = false
    // The two lists are set in `init`, not here: a default value here is compiled into a
    // function of its own, which the inlined initialiser then calls.
    @exclusivity(unchecked) @usableFromInline final var callbacks: InlineList<StoredCallback>
    @exclusivity(unchecked) @usableFromInline final var isRunningCallbacks = false
    @exclusivity(unchecked) @usableFromInline final var cancellationHandlers: InlineList<CancellationHandler>
    @exclusivity(unchecked) @usableFromInline final var wasCancelled = false
    /// How many observers are on their way to an actor (see ``observe(isolation:_:)``): an
    /// observer registered on an actor meanwhile hops too, so that it runs after them. Kept in
    /// the padding before ``dependents``.
    @exclusivity(unchecked) @usableFromInline final var hopsInFlight: UInt32 = 0
    @exclusivity(unchecked) @usableFromInline final var dependents = 0
    @exclusivity(unchecked) @usableFromInline final var isPinned = false
    /// The future this one is derived from or follows, while this one is pending, when that
    /// future is completed only by the chain it belongs to: held strongly, which costs nothing.
    @exclusivity(unchecked) @usableFromInline final var ownedUpstream: (any CancellationUpstream)?
    /// The same link when the upstream future is a ``Promise``: held weakly, so that the chain
    /// does not keep a promise alive that its owner has dropped (its observers then get
    /// ``BrokenPromise``).
    ///
    /// The weak reference lives in an object of its own, made only for a future that follows a
    /// promise: a `weak` field in every future would cost two runtime calls per future (to
    /// initialise it and to destroy it) even while it holds nothing.
    @exclusivity(unchecked) @usableFromInline final var promiseUpstream: PromiseLink?
    /// Whether this future is a ``Promise``, which whoever does the work completes (see
    /// ``promiseUpstream``). Set by the promise's initialiser, before the future is shared.
    @exclusivity(unchecked) @usableFromInline final var isPromise = false
    #if DEBUG
    /// Where the future was made, to name in ``BrokenPromise`` (debug builds only).
    @usableFromInline final let creationSite: (file: StaticString, line: UInt)
    #endif

    /// Creates a pending future; only this module can complete one directly.
    ///
    /// - Parameters:
    ///   - file: Where it was made; debug builds name it if the future is dropped pending.
    ///   - line: The line where it was made.
    @inlinable init(file: StaticString = #fileID, line: UInt = #line) {
        callbacks = InlineList()
        cancellationHandlers = InlineList()
        #if DEBUG
        creationSite = (file, line)
        #endif
    }

    /// A future dropped while pending can never complete: its callbacks fail with
    /// ``BrokenPromise`` so that nothing waits for it forever.
    deinit {
        if !isCompleted {
            // Callbacks are only left when the future never completed (completing takes them).
            guard !callbacks.isEmpty else { return }
            failCallbacksOfDroppedFuture()
        }
        destroyResult()
    }

    /// Destroys the result in ``valueSlot``; called once, by `deinit`.
    @inline(__always)
    final func destroyResult() {
        if !hasValue {
            withUnsafeMutablePointer(to: &valueSlot) { slot in
                _ = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: (any Error).self).move()
            }
        } else if !Self.storesValueInline {
            withUnsafeMutablePointer(to: &valueSlot) { slot in
                _ = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: AnyObject.self).move()
            }
        } else if !_isPOD(Value.self) {
            withUnsafeMutablePointer(to: &valueSlot) { slot in
                _ = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: Value.self).move()
            }
        }
    }

    /// Fails the callbacks of a future dropped while pending with ``BrokenPromise``. Kept out
    /// of `deinit`, whose every run would otherwise look up the metadata of the `Result` this
    /// rare path builds.
    @inline(never)
    final func failCallbacksOfDroppedFuture() {
        #if DEBUG
        let failure = BrokenPromise(file: "\(creationSite.file)", line: Int(creationSite.line))
        #else
        let failure = BrokenPromise(file: nil, line: nil)
        #endif
        setOutcome(.failure(failure))
        let nesting = CallbackNesting.current
        guard !nesting.isAtLimit else {
            // Too deep to run them here, and this future is being freed: a future that has
            // failed the same way takes the callbacks to the innermost level.
            let heir = Future<Value>()
            heir.setOutcome(.failure(failure))
            heir.callbacks = callbacks.removeAll()
            heir.isRunningCallbacks = true
            nesting.deferCallbacks(of: heir)
            return
        }
        nesting.runLevel {
            // Taken and freed inside the level: a pending future that only these callbacks
            // hold is then freed one level deeper, so that a long chain of them is freed in a
            // loop rather than by nested calls.
            let batch = callbacks.removeAll()
            batch.forEach { callback in
                if let next = callback(self) {
                    CallbackRunner.drain(next)
                }
            }
        }
    }

    /// Creates a pending future derived from `source`: cancelling it releases `source`.
    @inlinable convenience init<Source>(derivedFrom source: Future<Source>) {
        self.init()
        link(to: source)
    }

    /// Creates a future that has already succeeded with `value`.
    ///
    /// ```swift
    /// let ready = Future(value: Product(id: 7, name: "iPad Pro"))
    /// ```
    @inlinable public convenience init(value: Value) {
        self.init()
        setOutcome(.success(value))
    }

    /// Creates a future that has already failed with `error`.
    @inlinable public convenience init(error: any Error) {
        self.init()
        setOutcome(.failure(error))
    }

    /// Creates a future that has already completed with `result`.
    @inlinable public convenience init(result: Result<Value, any Error>) {
        self.init()
        setOutcome(result)
    }

    /// Whether a `Value` fits ``valueSlot``; a constant once specialised.
    ///
    /// Only a bitwise-takable value is kept there: ``outcome`` reads it through a copy of the
    /// slot's bytes.
    @inlinable static var storesValueInline: Bool {
        MemoryLayout<Value>.size <= MemoryLayout<ValueSlot>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<ValueSlot>.alignment
            && _isBitwiseTakable(Value.self)
    }

    /// The result as a `Result`, or `nil` while pending. Read it under the lock, or from a
    /// callback.
    @inlinable final var outcome: Result<Value, any Error>? {
        guard isCompleted else { return nil }
        // A read access, not `&valueSlot`: callbacks read a completed future without the lock,
        // from several threads at once, and an `inout` access is a write to the thread
        // sanitizer. The slot's bytes hold what `setOutcome` initialised there: an error, a
        // box, or a bitwise-takable `Value`, so copying it out of a copy of those bytes is
        // copying it out of the slot.
        guard hasValue else {
            return .failure(withUnsafePointer(to: valueSlot) { UnsafeRawPointer($0).load(as: (any Error).self) })
        }
        if Self.storesValueInline {
            return .success(withUnsafePointer(to: valueSlot) { UnsafeRawPointer($0).load(as: Value.self) })
        }
        let box = withUnsafePointer(to: valueSlot) { UnsafeRawPointer($0).load(as: AnyObject.self) }
        return .success(unsafeDowncast(box, to: ValueBox<Value>.self).value)
    }

    /// Sets the result; the lock must be held, or the future not yet shared. Called once.
    @inlinable final func setOutcome(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value):
            withUnsafeMutablePointer(to: &valueSlot) { slot in
                if Self.storesValueInline {
                    _ = UnsafeMutableRawPointer(slot).initializeMemory(as: Value.self, to: value)
                } else {
                    _ = UnsafeMutableRawPointer(slot).initializeMemory(as: AnyObject.self, to: ValueBox(value))
                }
            }
            hasValue = true
        case .failure(let error):
            withUnsafeMutablePointer(to: &valueSlot) { slot in
                _ = UnsafeMutableRawPointer(slot).initializeMemory(as: (any Error).self, to: error)
            }
        }
        isCompleted = true
    }

    // MARK: - Reading the state

    /// The result, or `nil` while the future is pending.
    @inlinable public final var result: Result<Value, any Error>? {
        lock.withLock { outcome }
    }

    /// The result, once the future has completed and run its callbacks (so that a callback
    /// registered now would run at once); `nil` before.
    @inlinable final var settledOutcome: Result<Value, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return isRunningCallbacks ? nil : outcome
    }

    /// Whether the future has not completed yet.
    @inlinable public final var isPending: Bool {
        lock.withLock { !isCompleted }
    }

    /// Whether the future was completed by ``cancel(isolation:)`` (directly, or because every future
    /// derived from it was cancelled).
    public final var isCancelled: Bool {
        lock.withLock { wasCancelled }
    }

    // MARK: - Observing

    /// Registers `observer` to run once with the result, in the isolation of the code that
    /// registers it.
    ///
    /// Written in nonisolated code, `observer` is a `@Sendable` closure that runs on the thread
    /// that completes the future, or at once, before this method returns, if the future has
    /// already completed. (Called from inside an observer nested 16 deep in other observers
    /// on this thread, it runs instead as soon as the observer in progress returns, so that
    /// observers registering observers never overflow the stack.)
    ///
    /// Written on an actor (a `@MainActor` view controller, or an `actor`), `observer` is
    /// isolated to that actor, so it may touch the actor's state: if the future has already
    /// completed, it runs at once, before this method returns; otherwise it runs once the
    /// future completes: in place, before the completing call returns, when the completing
    /// code is isolated to that actor too (a main-actor test resolving a ``Promise``), and on
    /// that actor, in a task, when it is not. This is the form a view controller uses, and
    /// what lets its test run with no waiting:
    ///
    /// ```swift
    /// @MainActor final class ProductViewController {
    ///     var title: String?
    ///     let loading: () -> Future<Product>
    ///
    ///     init(loading: @escaping () -> Future<Product>) {
    ///         self.loading = loading
    ///     }
    ///
    ///     func viewWillAppear() {
    ///         loading().observe { [weak self] result in
    ///             switch result {
    ///             case .success(let product): self?.title = product.name
    ///             case .failure: self?.title = "Failed to load"
    ///             }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// A closure written with an explicit global actor, `{ @MainActor result in … }`, runs on
    /// that actor: at once when the future has completed and the caller is on that actor
    /// already, in place when code isolated to that actor completes the future, in a task on
    /// that actor otherwise.
    ///
    /// Observers run exactly once, in registration order: those that run on the completing
    /// thread one after another, and those registered on one actor, or marked `@MainActor`, one
    /// after another on that actor (an observer registered while earlier ones are still on
    /// their way to an actor waits for them rather than running at once). Observers in
    /// different isolations run concurrently, and one marked with another global actor than
    /// its caller's hops there in a task of its own, unordered with others. When the completing
    /// code is isolated to an observer's actor, that observer does not hop: it runs on the
    /// completing thread in its place, so all of them run in registration order.
    /// (Completions take the caller's isolation from `#isolation`: a completion in
    /// nonisolated code, in a `@Sendable` closure, say, sends them to their actor in a task,
    /// even when it happens to run there.)
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, or `nil` in nonisolated code; leave it to its default.
    ///   - observer: Called exactly once with the future's result.
    /// - Note: Observing is an interest that cannot be withdrawn: a future with an observer is
    ///   not cancelled when the futures derived from it are. Call ``cancel(isolation:)`` to cancel it.
    @inlinable
    public final func observe(
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext _ observer: @escaping @isolated(any) @Sendable (Result<Value, any Error>) -> Void
    ) {
        if let actor = observer.isolation {
            // On its own actor, and the future has completed: the observer runs at once, and
            // the call crosses no isolation (specialised here, as that is the common case).
            if let isolation, ObjectIdentifier(isolation) == ObjectIdentifier(actor) {
                lock.lock()
                if hopsInFlight == 0, isCompleted, !isRunningCallbacks, let outcome {
                    isPinned = true
                    lock.unlock()
                    Self.synchronous(observer)(outcome)
                    return
                }
                lock.unlock()
            }
            observe(from: isolation, isolatedTo: actor, observer)
            return
        }
        // A nonisolated observer may run on any thread: it is called directly (see
        // `synchronous(_:)`).
        lock.lock()
        isPinned = true
        if isCompleted, !isRunningCallbacks {
            observeCompleted(Self.synchronous(observer))
            return
        }
        let invoker: ObserverInvoker = { source, observer in
            Self.synchronous(erased: observer)(Future.outcome(of: source))
        }
        guard let code = FunctionParts.code(ofContextFree: invoker) else {
            // Only unspecialised code gets here: its invoker captures the type's metadata.
            let observer = Self.synchronous(observer)
            callbacks.append(
                StoredCallback { source in
                    observer(Future.outcome(of: source))
                    return nil
                }
            )
            lock.unlock()
            return
        }
        callbacks.append(taking: StoredCallback(observer: Self.erase(observer), invoker: code))
        lock.unlock()
    }

    /// Runs a nonisolated `observer` of this future, which has completed and run its callbacks,
    /// at once, as a level of its own (see ``CallbackNesting``); or, when levels already nest
    /// as deep as they may, adds it to the callbacks for the innermost level to run next, on
    /// this thread. The lock must be held, and is released.
    @inlinable @inline(never)
    final func observeCompleted(_ observer: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        let nesting = CallbackNesting.current
        guard !nesting.isAtLimit, let outcome else {
            deferObserver(observer, to: nesting)
            return
        }
        lock.unlock()
        nesting.runLevel { observer(outcome) }
    }

    /// Adds `observer` to the callbacks of this future, which has completed and run its
    /// callbacks, and hands the future to `nesting`'s innermost level, which runs them next. The
    /// lock must be held, and is released.
    @usableFromInline
    final func deferObserver(
        _ observer: @escaping @Sendable (Result<Value, any Error>) -> Void,
        to nesting: CallbackNesting
    ) {
        deferCallback(
            { source in
                observer(Future.outcome(of: source))
                return nil
            },
            to: nesting
        )
    }

    /// Adds `callback` to the callbacks of this future, which has completed and run its
    /// callbacks, and hands the future to `nesting`'s innermost level, which runs them next. The
    /// lock must be held, and is released.
    @usableFromInline
    final func deferCallback(_ callback: @escaping Callback, to nesting: CallbackNesting) {
        isRunningCallbacks = true
        callbacks.append(StoredCallback(callback))
        lock.unlock()
        nesting.deferCallbacks(of: self)
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
        guard !isCompleted else {
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
        guard !isCompleted else {
            lock.unlock()
            return (false, false)
        }
        setOutcome(result)
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

    /// The result of `source`, a `Future<Value>` whose callback is running: callbacks receive
    /// the future that completed rather than capturing it, so that a pending future and its
    /// callbacks never keep each other alive.
    @inlinable static func outcome(of source: AnyObject) -> Result<Value, any Error> {
        guard let outcome = unsafeDowncast(source, to: Future<Value>.self).outcome else {
            preconditionFailure("A future's callback ran before the future completed.")
        }
        return outcome
    }

    /// Cancels the pending future; the lock must be held and is released.
    ///
    /// - Returns: the upstream future to release next (the caller walks the chain in a loop,
    ///   so cancelling a long chain does not recurse).
    @usableFromInline
    final func cancelLocked() -> (any CancellationUpstream)? {
        setOutcome(.failure(CancellationError()))
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

    // MARK: - Callbacks and dependents (internal)

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
        if isCompleted, !isRunningCallbacks {
            return registerCompleted(callback)
        }
        if retainingDependent {
            dependents += 1
        }
        callbacks.append(StoredCallback(callback))
        lock.unlock()
        return nil
    }

    /// Runs `callback` for this future, which has completed and run its callbacks, at once, as a
    /// level of its own (see ``CallbackNesting``); or, when levels already nest as deep as they
    /// may, adds it to the callbacks for the innermost level to run next, on this thread. The
    /// lock must be held, and is released.
    ///
    /// - Returns: What `callback` returned, when it ran.
    @usableFromInline
    final func registerCompleted(_ callback: @escaping Callback) -> (any PendingCallbacks)? {
        let nesting = CallbackNesting.current
        guard !nesting.isAtLimit else {
            deferCallback(callback, to: nesting)
            return nil
        }
        lock.unlock()
        return nesting.runLevel { callback(self) }
    }

    /// Registers a callback and runs whatever it completes at once.
    @inlinable
    final func whenComplete(retainingDependent: Bool, _ callback: @escaping Callback) {
        if let pending = register(retainingDependent: retainingDependent, callback) {
            CallbackRunner.drain(pending)
        }
    }

    /// Counts one more cancellable dependent (a derived future or an awaiting task).
    @inlinable
    final func retainDependent() {
        lock.lock()
        if !isCompleted {
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
        guard !isCompleted else {
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
        guard !isCompleted else {
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

/// Raw, suitably aligned bytes in a future that hold its result (see ``Future/valueSlot``):
/// room for most model types, several strings or a `Data` and a response.
@usableFromInline struct ValueSlot {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable init() {}
}

/// The value of a future that does not fit its ``ValueSlot``.
@usableFromInline final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @inlinable init(_ value: Value) {
        self.value = value
    }
}

/// A registered callback, given the future that completed. Combinators create callbacks in
/// their own (specialised) code, so that the loop running them needs to know nothing of the
/// future's value type.
@usableFromInline typealias Callback = @Sendable (_ source: AnyObject) -> (any PendingCallbacks)?

/// Calls an observer that ``StoredCallback`` stores as it is (see ``Future/erase(_:)``) with the
/// result of the completed future `source`.
@usableFromInline typealias ObserverInvoker = @Sendable (_ source: AnyObject, _ observer: @escaping Callback) -> Void

/// A ``Callback`` as the callback list stores it, or an observer.
///
/// The struct keeps the closure in its own calling convention: a bare closure stored in the
/// generic ``InlineList`` would be re-abstracted through a thunk, one more allocation per
/// callback.
///
/// An observer (``Future/observe(isolation:_:)``) is stored as it is, in `run`, with the code
/// of an ``ObserverInvoker`` that calls it in `invoker`: wrapping it in a callback closure
/// would allocate that closure's context, as the optimiser does not fold an `@isolated(any)`
/// closure into the closure that captures it (one allocation per observer, and its
/// instructions). The invoker captures nothing, so its code is all there is to keep (see
/// ``FunctionParts``).
@usableFromInline struct StoredCallback: Sendable {
    /// For an observer, the address of the code of its ``ObserverInvoker``; 0 for a callback.
    @usableFromInline let invoker: UInt
    @usableFromInline let run: Callback

    @inlinable init(_ run: @escaping Callback) {
        self.run = run
        invoker = 0
    }

    /// An observer kept by ``Future/erase(_:)``, and the code of its invoker, which captures
    /// nothing (``FunctionParts/code(ofContextFree:)`` checks it).
    @inlinable init(observer: @escaping Callback, invoker: UInt) {
        run = observer
        self.invoker = invoker
    }

    /// Runs the callback for `source`, which has completed.
    ///
    /// - Returns: The derived future the callback completed, if that has callbacks to run.
    @inlinable func callAsFunction(_ source: AnyObject) -> (any PendingCallbacks)? {
        if invoker != 0 {
            FunctionParts.invoker(code: invoker)(source, run)
            return nil
        }
        return run(source)
    }
}

/// A cancellation handler as the list stores it (see ``StoredCallback``).
@usableFromInline struct CancellationHandler: Sendable {
    @usableFromInline let run: @Sendable () -> Void

    @inlinable init(run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}

/// What setting a result did.
@usableFromInline enum Completion {
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

// MARK: - The runner's and the chain's view of a future

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
        guard !isCompleted, dependents > 0 else {
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
