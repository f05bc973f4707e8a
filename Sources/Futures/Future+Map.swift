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
    /// - Note: Cancelling the returned future releases this one (see ``cancel()``).
    @inlinable
    public final func map<NewValue>(
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Future<NewValue> {
        let derived = Future<NewValue>(derivedFrom: self)
        whenComplete(retainingDependent: true) { source in
            let result = Future.outcome(of: source).flatMap { value in Result { try transform(value) } }
            return derived.completeDeferringCallbacks(with: result).pending
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
        let derived = Future<NewValue>(derivedFrom: self)
        whenComplete(retainingDependent: true) { source in
            switch Future.outcome(of: source) {
            case .failure(let error):
                return derived.completeDeferringCallbacks(with: .failure(error)).pending
            case .success(let value):
                return derived.follow { try transform(value) }
            }
        }
        return derived
    }
}

// MARK: - Following another future (internal)

extension Future {
    /// Completes this future with the result of the future `makeSource` returns (or with the
    /// error it throws), and makes cancelling this future release that source.
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
