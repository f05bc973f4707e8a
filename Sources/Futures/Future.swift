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
    // MARK: - State
    //
    // Each invariant of a future's state is written once, at the field that keeps it.

    /// Guards every stored property below: each is read and written with it held, except where
    /// a property says otherwise. That is what makes the dynamic exclusivity checks redundant:
    /// `@exclusivity(unchecked)` drops them (a large share of a promise's life; see
    /// Benchmarks/README.md). Nothing calls out of the module with it held: callbacks,
    /// cancellation handlers and the releases of other futures run after it is released.
    @usableFromInline final let lock = Lock()
    /// The result: empty while the future is pending, set once and never changed (see
    /// ``ResultSlot``). Written under the lock; read under the lock, or without it by
    /// callbacks, which run only after the lock has shown it set. The future is completed
    /// exactly when this is not empty.
    @exclusivity(unchecked) @usableFromInline final var slot = ResultSlot()
    /// Callbacks and observers, in registration order: registered while the future is pending,
    /// or while ``isRunningCallbacks``, and taken out of the list (under the lock) to run
    /// outside it, each exactly once. Empty once the future is completed and they have run.
    // The lists are set in `init`, not here: a default value here is compiled into a function
    // of its own, which the inlined initialiser then calls.
    @exclusivity(unchecked) @usableFromInline final var callbacks: InlineList<StoredCallback>
    /// The first observer registered while the future was pending, kept here rather than in
    /// a closure of ``callbacks``, which would allocate that closure's context: written once,
    /// under the lock, by that registration (which sets ``hasStoredFirstObserver`` and adds its
    /// entry to ``callbacks``); taken, and so released, by that entry, without the lock, since
    /// nothing else touches it afterwards.
    @exclusivity(unchecked) @usableFromInline final var firstObserver: Observer<Value>?
    /// Whether an observer was ever stored in ``firstObserver``; later ones go to
    /// ``laterObservers``.
    @exclusivity(unchecked) @usableFromInline final var hasStoredFirstObserver = false
    /// The observers registered after the first whose entries in ``callbacks`` have not taken
    /// them yet, in registration order; `nil` when there are none.
    @exclusivity(unchecked) @usableFromInline final var laterObservers: [ObserverEntry<Value>]?
    /// The later observers that the running entries take, one each, in order: ``laterObservers``
    /// as it was when the first of them ran. Touched only by those entries, which run one at a
    /// time, so without the lock; dropped once each has taken its own.
    @exclusivity(unchecked) @usableFromInline final var runningObservers: [ObserverEntry<Value>]?
    /// The next of ``runningObservers`` to take.
    @exclusivity(unchecked) @usableFromInline final var nextRunningObserver = 0
    /// Set by the completion that finds callbacks to run, until the list is drained: a callback
    /// registered meanwhile joins the list (so that it runs after those before it), where on a
    /// completed future it would otherwise run at once.
    @exclusivity(unchecked) @usableFromInline final var isRunningCallbacks = false
    /// Run if the future is cancelled; dropped, unrun, when it completes otherwise. Empty once
    /// the future has completed.
    @exclusivity(unchecked) @usableFromInline final var cancellationHandlers: InlineList<CancellationHandler>
    /// Whether the completion was a cancellation (see ``isCancelled``).
    @exclusivity(unchecked) @usableFromInline final var wasCancelled = false
    /// How many observers are on their way to an actor (see ``observe(isolation:_:)``): an
    /// observer registered on an actor meanwhile hops too, so that it runs after them. Kept in
    /// the padding before ``dependents``.
    @exclusivity(unchecked) @usableFromInline final var hopsInFlight: UInt32 = 0
    /// How many derived futures and awaiting tasks still depend on this pending future. When the
    /// last releases it, the future is cancelled, unless ``isPinned``.
    @exclusivity(unchecked) @usableFromInline final var dependents = 0
    /// Set by the first observer: observing is an interest that is never withdrawn, so a pinned
    /// future is only cancelled by a call to ``cancel(isolation:)`` on it.
    @exclusivity(unchecked) @usableFromInline final var isPinned = false
    /// The future this one is derived from or follows, while this one is pending, when that
    /// future is completed only by the chain it belongs to: held strongly, which costs nothing.
    /// At most one of this and ``promiseUpstream`` is set, and neither once this future has
    /// completed; what they held is released outside the lock.
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

    // MARK: - Creating

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
        slot.store(.success(value))
    }

    /// Creates a future that has already failed with `error`.
    @inlinable public convenience init(error: any Error) {
        self.init()
        slot.store(Result<Value, any Error>.failure(error))
    }

    /// Creates a future that has already completed with `result`.
    @inlinable public convenience init(result: Result<Value, any Error>) {
        self.init()
        slot.store(result)
    }

    /// A future dropped while pending can never complete: its callbacks fail with
    /// ``BrokenPromise`` so that nothing waits for it forever.
    deinit {
        if slot.isEmpty {
            // Callbacks are only left when the future never completed (completing takes them).
            guard !callbacks.isEmpty else { return }
            failCallbacksOfDroppedFuture()
        }
        slot.destroy(as: Value.self)
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
        slot.store(Result<Value, any Error>.failure(failure))
        let nesting = CallbackNesting.current
        guard !nesting.isAtLimit else {
            // Too deep to run them here, and this future is being freed: a future that has
            // failed the same way takes the callbacks to the innermost level.
            let heir = Future<Value>(error: failure)
            heir.callbacks = callbacks.removeAll()
            heir.firstObserver = firstObserver
            firstObserver = nil
            heir.hasStoredFirstObserver = hasStoredFirstObserver
            heir.laterObservers = laterObservers
            laterObservers = nil
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

    // MARK: - Reading the state

    /// The result, or `nil` while the future is pending.
    @inlinable public final var result: Result<Value, any Error>? {
        lock.withLock { outcome }
    }

    /// Whether the future has not completed yet.
    @inlinable public final var isPending: Bool {
        lock.withLock { slot.isEmpty }
    }

    /// Whether the future was completed by ``cancel(isolation:)`` (directly, or because every
    /// future derived from it was cancelled).
    public final var isCancelled: Bool {
        lock.withLock { wasCancelled }
    }

    /// The result, or `nil` while pending. Read it under the lock, or from a callback.
    @inlinable final var outcome: Result<Value, any Error>? {
        slot.load(as: Value.self)
    }

    /// The result, once the future has completed and run its callbacks (so that a callback
    /// registered now would run at once); `nil` before.
    @inlinable final var settledOutcome: Result<Value, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return isRunningCallbacks ? nil : outcome
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
}
