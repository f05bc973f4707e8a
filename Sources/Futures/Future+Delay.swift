// MARK: - Delaying

extension Future {
    /// Returns a future that completes with this future's result, `duration` after it arrives.
    ///
    /// ```swift
    /// let debounced = search(query).delay(for: .milliseconds(300))
    /// ```
    ///
    /// The wait runs on `clock`, so a test can pass a manual clock and never sleep. A
    /// cancellation passes through at once.
    ///
    /// - Parameters:
    ///   - duration: How long to hold the result back; longer than a century counts as a
    ///     century (Swift's clocks cannot schedule a later deadline).
    ///   - clock: The clock that measures the wait; `ContinuousClock` unless you pass another.
    /// - Returns: A derived future; cancelling it stops the wait and releases this future.
    public final func delay<C: Clock>(
        for duration: C.Duration,
        clock: C = ContinuousClock()
    ) -> Future<Value> {
        let derived = Future<Value>(derivedFrom: self)
        whenComplete(retainingDependent: true) { source in
            let result = Future.outcome(of: source)
            if case .failure(let error) = result, error is CancellationError {
                return derived.completeDeferringCallbacks(with: result).pending
            }
            let deadline = clock.now.advanced(by: schedulable(duration))
            let wait = Task {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                    derived.settle(with: result)
                } catch {
                    derived.settle(with: .failure(error))
                }
            }
            derived.addCancellationHandler { wait.cancel() }
            return nil
        }
        return derived
    }
}
