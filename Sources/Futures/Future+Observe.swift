import Dispatch

// MARK: - Observing

extension Future {
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
        let observer = IsolatedObserver(observer)
        if let actor = observer.isolation {
            // On its own actor, and the future has completed: the observer runs at once, and
            // the call crosses no isolation (specialised here, as that is the common case).
            if let isolation, ObjectIdentifier(isolation) == ObjectIdentifier(actor) {
                lock.lock()
                if hopsInFlight == 0, !isRunningCallbacks, let outcome {
                    isPinned = true
                    lock.unlock()
                    observer.synchronous(outcome)
                    return
                }
                lock.unlock()
            }
            observe(from: isolation, isolatedTo: actor, observer)
            return
        }
        // A nonisolated observer may run on any thread: it is called directly.
        lock.lock()
        isPinned = true
        if !slot.isEmpty, !isRunningCallbacks {
            observeCompleted(observer.synchronous)
            return
        }
        store(observer.synchronous)
        lock.unlock()
    }

    /// Registers `observer` to run once with the result, asynchronously on `queue`.
    ///
    /// ```swift
    /// loader(id).observe(on: .main) { result in
    ///     MainActor.assumeIsolated { label.text = (try? result.get())?.name }
    /// }
    /// ```
    ///
    /// Observers registered on the same serial queue run in registration order.
    ///
    /// - Parameters:
    ///   - queue: Where `observer` runs.
    ///   - observer: Called exactly once with the future's result.
    public final func observe(
        on queue: DispatchQueue,
        _ observer: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        observe { result in
            queue.async { observer(result) }
        }
    }

    /// Registers `observer` to run once with the result, on the main actor.
    ///
    /// The same as ``observe(isolation:_:)`` with a `@MainActor` closure, for code that is not
    /// on the main actor itself; on the main actor, `observe` alone does this:
    ///
    /// ```swift
    /// func show(_ future: Future<Product>, in label: ProductLabel) {
    ///     future.observeOnMainActor { result in
    ///         label.text = (try? result.get())?.name
    ///     }
    /// }
    /// ```
    ///
    /// `observer` runs at once if the future has completed and the caller is on the main
    /// actor, in place (before the completing call returns) when main-actor code completes the
    /// future later, and in a task on the main actor otherwise.
    public final func observeOnMainActor(
        isolation: isolated (any Actor)? = #isolation,
        _ observer: @escaping @MainActor (Result<Value, any Error>) -> Void
    ) {
        observe(isolation: isolation, observer)
    }
}
