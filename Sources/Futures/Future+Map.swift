// MARK: - Transforming values

extension Future {
    /// Returns a future of `transform` applied to this future's value.
    ///
    /// A failure passes through untouched; an error thrown by `transform` fails the new future.
    ///
    /// ```swift
    /// let names: Future<[String]> = productsFuture.map { products in products.map(\.name) }
    /// ```
    ///
    /// - Parameter transform: Runs once, on the thread that completes this future.
    /// - Returns: A future that completes when this one does.
    /// - Note: Cancelling the returned future releases this one (see ``cancel(isolation:)``).
    @inlinable
    public final func map<NewValue>(
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Future<NewValue> {
        let derived = MappedFuture<Value, NewValue>(source: self, transform: transform)
        // The callback captures only the derived future (which holds the transform): Swift
        // uses that object as the closure's context, so registering it allocates nothing.
        whenComplete(retainingDependent: true) { source in
            derived.complete(from: Future.outcome(of: source))
        }
        return derived
    }

    /// Returns a future of the future that `transform` makes from this future's value.
    ///
    /// Use it to run one asynchronous step after another:
    ///
    /// ```swift
    /// let reviews: Future<[Review]> = loadProduct(id).flatMap { product in
    ///     loadReviews(product.reviewsID)
    /// }
    /// ```
    ///
    /// A failure passes through untouched and `transform` is not called; an error thrown by
    /// `transform` fails the new future.
    ///
    /// - Parameter transform: Runs once, on the thread that completes this future.
    /// - Returns: A future that completes when the future made by `transform` does.
    /// - Note: Cancelling the returned future releases this one, or, once `transform` has run,
    ///   the future it made.
    @inlinable
    public final func flatMap<NewValue>(
        _ transform: @escaping @Sendable (Value) throws -> Future<NewValue>
    ) -> Future<NewValue> {
        let derived = FlatMappedFuture<Value, NewValue>(source: self, transform: transform)
        whenComplete(retainingDependent: true) { source in
            derived.complete(from: Future.outcome(of: source))
        }
        return derived
    }
}

// MARK: - Following another future (internal)

extension Future {
    /// Completes this future with the result of the future `makeSource` returns (or with the
    /// error it throws), and makes cancelling this future release that source.
    ///
    /// A source that is this future, or waits for it, fails this future with ``FutureCycle``.
    ///
    /// - Returns: this future, when it completed at once and has callbacks to run.
    @inlinable
    final func follow(_ makeSource: () throws -> Future<Value>) -> (any PendingCallbacks)? {
        guard isPending else {
            return nil  // cancelled before the source was made: do not start it
        }
        let source: Future<Value>
        do {
            source = try makeSource()
        } catch {
            return completeDeferringCallbacks(with: .failure(error)).pending
        }
        if let outcome = source.settledOutcome {
            // Already completed (a cached or ready value): nothing to link or to wait for.
            return completeDeferringCallbacks(with: outcome).pending
        }
        if let length = cycleLength(following: source) {
            // `source` is this future, or waits for it: neither could ever complete.
            return completeDeferringCallbacks(with: .failure(FutureCycle(length: length))).pending
        }
        source.retainDependent()
        setUpstream(source)
        return source.register(retainingDependent: false) { [self] completed in
            completeDeferringCallbacks(with: Future.outcome(of: completed)).pending
        }
    }

    /// Makes a future derived from this one, completed by `transform` from this future's
    /// result, for combinators off the hot path.
    @inlinable
    final func deriveResult<NewValue>(
        _ transform: @escaping @Sendable (Result<Value, any Error>) -> Result<NewValue, any Error>
    ) -> Future<NewValue> {
        let derived = Future<NewValue>(derivedFrom: self)
        whenComplete(retainingDependent: true) { source in
            derived.completeDeferringCallbacks(with: transform(Future.outcome(of: source))).pending
        }
        return derived
    }
}

// MARK: - The futures `map` and `flatMap` make (internal)

/// The future `map` returns: it keeps the transform itself, so that the callback it registers
/// on its source captures nothing. One allocation per step of a chain, where a future plus a
/// closure context would be two.
@usableFromInline
final class MappedFuture<Source: Sendable, Value: Sendable>: Future<Value>, @unchecked Sendable {
    /// Set at creation; read and replaced (see ``SpentTransform``) in the one callback run, so that
    /// it stops keeping what it captures alive. (Not an optional: that would store the closure
    /// through a re-abstraction thunk, one allocation more.)
    @exclusivity(unchecked) @usableFromInline var transform: @Sendable (Source) throws -> Value

    @inlinable init(source: Future<Source>, transform: @escaping @Sendable (Source) throws -> Value) {
        self.transform = transform
        super.init()
        link(to: source)
    }

    /// Completes the future with the transform applied to the source's result.
    @inlinable func complete(from result: Result<Source, any Error>) -> (any PendingCallbacks)? {
        let transform = self.transform
        self.transform = { _ in throw SpentTransform() }
        return completeDeferringCallbacks(with: result.flatMap { value in Result { try transform(value) } }).pending
    }
}

/// What a transform that has already run is replaced with; never thrown, since a derived
/// future's callback runs once.
@usableFromInline struct SpentTransform: Error {
    @inlinable init() {}
}

/// The future `flatMap` returns (see ``MappedFuture``).
@usableFromInline
final class FlatMappedFuture<Source: Sendable, Value: Sendable>: Future<Value>, @unchecked Sendable {
    /// Set at creation; read and replaced in the one callback run (see ``MappedFuture``).
    @exclusivity(unchecked) @usableFromInline var transform: @Sendable (Source) throws -> Future<Value>

    @inlinable init(source: Future<Source>, transform: @escaping @Sendable (Source) throws -> Future<Value>) {
        self.transform = transform
        super.init()
        link(to: source)
    }

    /// Fails with the source's error, or follows the future the transform makes from its value.
    @inlinable func complete(from result: Result<Source, any Error>) -> (any PendingCallbacks)? {
        let transform = self.transform
        self.transform = { _ in throw SpentTransform() }
        switch result {
        case .failure(let error):
            return completeDeferringCallbacks(with: .failure(error)).pending
        case .success(let value):
            return follow { try transform(value) }
        }
    }
}
