// MARK: - Handling errors

extension Future {
    /// Returns a future whose error, if any, is replaced by `transform(error)`.
    ///
    /// ```swift
    /// let request = session.request(endpoint).mapError { error in AppError.network(error) }
    /// ```
    ///
    /// - Note: `CancellationError` passes through unchanged, so that callers can always tell a
    ///   cancellation apart from a failure.
    @inlinable
    public final func mapError(
        _ transform: @escaping @Sendable (any Error) -> any Error
    ) -> Future<Value> {
        deriveResult { result in
            result.mapError { error in
                error is CancellationError ? error : transform(error)
            }
        }
    }

    /// Returns a future that replaces a failure with the value `transform` makes from the error.
    ///
    /// ```swift
    /// let products = loadProducts().recover { _ in [] }
    /// ```
    ///
    /// If `transform` throws, the new future fails with that error.
    ///
    /// - Note: `CancellationError` is not recovered: a cancelled future stays cancelled.
    @inlinable
    public final func recover(
        _ transform: @escaping @Sendable (any Error) throws -> Value
    ) -> Future<Value> {
        deriveResult { result in
            result.flatMapError { error in
                error is CancellationError ? .failure(error) : Result { try transform(error) }
            }
        }
    }

    /// Returns a future that replaces a failure with the future `transform` makes from the
    /// error — a fallback request, say.
    ///
    /// ```swift
    /// let product = loadFromNetwork(id).flatMapError { _ in loadFromDisk(id) }
    /// ```
    ///
    /// - Note: `CancellationError` is not recovered: a cancelled future stays cancelled.
    @inlinable
    public final func flatMapError(
        _ transform: @escaping @Sendable (any Error) throws -> Future<Value>
    ) -> Future<Value> {
        let derived = Future<Value>(derivedFrom: self)
        whenComplete(retainingDependent: true) { source in
            let result = Future.outcome(of: source)
            switch result {
            case .failure(let error) where !(error is CancellationError):
                return derived.follow { try transform(error) }
            default:
                return derived.completeDeferringCallbacks(with: result).pending
            }
        }
        return derived
    }
}
