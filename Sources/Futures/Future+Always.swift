// MARK: - Side effects

extension Future {
    /// Returns a future with the same result, after running `body` with it.
    ///
    /// Use it for work that must happen whatever the outcome, such as hiding a spinner:
    ///
    /// ```swift
    /// loadProduct(id)
    ///     .always { _ in spinner.stop() }
    ///     .observe { result in show(result) }
    /// ```
    ///
    /// Unlike ``observe(isolation:_:)``, `always` makes a derived future, so cancelling the
    /// returned future still cancels this one.
    @inlinable
    public final func always(
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> Future<Value> {
        deriveResult { result in
            body(result)
            return result
        }
    }
}
