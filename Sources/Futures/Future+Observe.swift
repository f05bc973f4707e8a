import Dispatch

// MARK: - Observing on a queue

extension Future {
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
}

// MARK: - Observing on the main actor

extension Future {
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
        _ observer: @escaping @isolated(any) @Sendable (Result<Value, any Error>) -> Void
    ) {
        let callerIsOnActor = isolation.map { ObjectIdentifier($0) == ObjectIdentifier(actor) } ?? false
        lock.lock()
        isPinned = true
        if callerIsOnActor, hopsInFlight == 0, isCompleted, !isRunningCallbacks, let outcome {
            lock.unlock()
            // The caller is isolated to the observer's actor: the call crosses no isolation.
            Self.synchronous(observer)(outcome)
            return
        }
        lock.unlock()
        guard callerIsOnActor else {
            whenComplete(retainingDependent: false) { [weak self] source in
                if CallbackNesting.isRunningIsolated(to: actor) {
                    // Completed on the observer's actor (see `CallbackNesting.isolation`).
                    Self.synchronous(observer)(Future.outcome(of: source))
                    return nil
                }
                let future = unsafeDowncast(source, to: Future<Value>.self)
                future.beginHop()
                Self.hop(observer, to: actor, with: Future.outcome(of: source), endingHopOf: self)
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
            await observer(result)
            self?.endHop()
        }
        whenComplete(retainingDependent: false) { source in
            if CallbackNesting.isRunningIsolated(to: actor) {
                // Completed on the observer's actor (see `CallbackNesting.isolation`).
                Self.synchronous(observer)(Future.outcome(of: source))
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

    /// `observer` as a plain synchronous closure, to call where its isolation is already
    /// satisfied: when it is nonisolated, or when the caller is isolated to its actor.
    ///
    /// Swift cannot call a synchronous `@isolated(any)` function synchronously yet, even from
    /// its own actor (SE-0431 lists that as a future direction), nor convert it to a
    /// synchronous function type. Its value is an ordinary thick function (a function pointer
    /// and a context, the isolation being kept in the context), whose calling convention is
    /// that of the same type without `@isolated(any)`; that representation is part of the ABI
    /// on Apple platforms, and the standard library's own `Observations` reads the function the
    /// same way (`Observations.Iterator.ElementClosure.toSynchronous()`, Swift 6.2), after
    /// moving to the closure's isolation with an `isolated` parameter, as these callers do.
    /// The wrappers give both functions the same abstraction, so the cast adds no thunk.
    @inlinable
    static func synchronous(
        _ observer: @escaping @isolated(any) @Sendable (Result<Value, any Error>) -> Void
    ) -> @Sendable (Result<Value, any Error>) -> Void {
        unsafeBitCast(IsolatedObserver(observer), to: SynchronousObserver<Value>.self).function
    }

    /// `observer`, a nonisolated observer, kept in a ``Callback`` so that ``StoredCallback``
    /// can hold it without wrapping it in a closure (which would allocate): every closure has
    /// the same representation, two words, whatever its type. Never called as a `Callback`;
    /// ``synchronous(erased:)`` gives it back.
    @inlinable
    static func erase(
        _ observer: @escaping @isolated(any) @Sendable (Result<Value, any Error>) -> Void
    ) -> Callback {
        unsafeBitCast(IsolatedObserver(observer), to: ErasedObserver.self).function
    }

    /// The nonisolated observer that ``erase(_:)`` kept, as a plain synchronous closure.
    @inlinable
    static func synchronous(erased observer: @escaping Callback) -> @Sendable (Result<Value, any Error>) -> Void {
        unsafeBitCast(ErasedObserver(observer), to: SynchronousObserver<Value>.self).function
    }
}

/// An observer, as ``Future/observe(isolation:_:)`` receives it (see ``Future/synchronous(_:)``).
@usableFromInline
struct IsolatedObserver<Value: Sendable> {
    @usableFromInline let function: @isolated(any) @Sendable (Result<Value, any Error>) -> Void

    @inlinable
    init(_ function: @escaping @isolated(any) @Sendable (Result<Value, any Error>) -> Void) {
        self.function = function
    }
}

/// The same observer, read as a synchronous function (see ``Future/synchronous(_:)``).
@usableFromInline
struct SynchronousObserver<Value: Sendable> {
    @usableFromInline let function: @Sendable (Result<Value, any Error>) -> Void
}

/// The same observer, kept as a ``Callback`` (see ``Future/erase(_:)``).
@usableFromInline
struct ErasedObserver {
    @usableFromInline let function: Callback

    @inlinable init(_ function: @escaping Callback) {
        self.function = function
    }
}

/// The two words of a closure: the address of its code, then its context (0 when it captures
/// nothing), as Swift's ABI lays out every thick function ("Thick functions", TypeLayout.rst
/// in the Swift repository; fixed on Apple platforms by ABI stability).
///
/// ``StoredCallback`` keeps only the code of an ``ObserverInvoker`` that captures nothing, and
/// makes the closure again from it: both times as the same function type, so that a signed
/// code pointer (arm64e) is used as it was signed.
@usableFromInline
struct FunctionParts {
    @usableFromInline let code: UInt
    @usableFromInline let context: UInt

    @inlinable init(code: UInt, context: UInt) {
        self.code = code
        self.context = context
    }

    /// The address of `invoker`'s code, or `nil` if `invoker` captures anything (in code not
    /// specialised for a type, it captures the type's metadata), which this cannot keep.
    @inlinable
    static func code(ofContextFree invoker: @escaping ObserverInvoker) -> UInt? {
        let parts = unsafeBitCast(InvokerFunction(invoker), to: FunctionParts.self)
        return parts.context == 0 ? parts.code : nil
    }

    /// The invoker whose code is at `code` (see ``code(ofContextFree:)``).
    @inlinable
    static func invoker(code: UInt) -> ObserverInvoker {
        unsafeBitCast(FunctionParts(code: code, context: 0), to: InvokerFunction.self).function
    }
}

/// An ``ObserverInvoker`` in a struct, to read its words (see ``FunctionParts``).
@usableFromInline
struct InvokerFunction {
    @usableFromInline let function: ObserverInvoker

    @inlinable init(_ function: @escaping ObserverInvoker) {
        self.function = function
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
