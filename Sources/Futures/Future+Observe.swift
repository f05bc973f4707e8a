import Dispatch

// MARK: - Observing on a queue

extension Future {
    /// Registers `observer` to run once with the result, asynchronously on `queue`.
    ///
    /// ```swift
    /// loader(id).observe(on: .main) { result in
    ///     label.text = (try? result.get())?.name
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
