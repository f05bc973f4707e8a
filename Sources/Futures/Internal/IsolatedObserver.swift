/// An observer as ``Future/observe(isolation:_:)`` receives it, and the one place the module
/// calls an `@isolated(any)` function without `await`.
///
/// Swift cannot call a synchronous `@isolated(any)` function synchronously yet, even from its
/// own actor (SE-0431 lists that as a future direction), nor convert it to a synchronous
/// function type. ``synchronous`` reads it as one: an `@isolated(any)` function value is an
/// ordinary thick function (a function pointer and a context, the isolation being kept in the
/// context) whose calling convention is that of the same type without `@isolated(any)`. The
/// standard library's `Observations` (Swift 6.2) calls its observers' closures the same way,
/// after moving to their isolation. Both structs give the function the same abstraction, so
/// the conversion adds no thunk, and the function pointer is used as the function type it was
/// made for, apart from the isolation.
///
/// Call ``synchronous`` only where the observer's isolation is satisfied: when it is
/// nonisolated (``isolation`` is `nil`), or when the caller is isolated to its actor.
@usableFromInline
struct IsolatedObserver<Value: Sendable>: Sendable {
    @usableFromInline let function: @isolated(any) @Sendable (Result<Value, any Error>) -> Void

    @inlinable
    init(_ function: @escaping @isolated(any) @Sendable (Result<Value, any Error>) -> Void) {
        self.function = function
    }

    /// The actor the observer is isolated to; `nil` when it may run anywhere.
    @inlinable var isolation: (any Actor)? { function.isolation }

    /// The observer as a plain synchronous closure (see the type's documentation).
    @inlinable var synchronous: Observer<Value> {
        unsafeBitCast(self, to: SynchronousObserver<Value>.self).function
    }
}

/// The same observer, read as a synchronous function (see ``IsolatedObserver``).
@usableFromInline
struct SynchronousObserver<Value: Sendable> {
    @usableFromInline let function: Observer<Value>
}
