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

// MARK: - Observing on the main actor

extension Future {
    /// Registers `observer` to run once with the result, on the main actor.
    ///
    /// The form a view controller or a SwiftUI model uses:
    ///
    /// ```swift
    /// @MainActor final class ProductViewController {
    ///     func viewWillAppear() {
    ///         loading().observeOnMainActor { [weak self] result in
    ///             self?.render(result)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Observers registered this way run on the main actor in registration order.
    public func observeOnMainActor(
        _ observer: @escaping @MainActor (Result<Value, any Error>) -> Void
    ) {
        observe { result in
            Task { @MainActor in observer(result) }
        }
    }
}
