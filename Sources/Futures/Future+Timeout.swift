// MARK: - Time limits

extension Future {
    /// Returns a future that fails with ``TimeoutError`` if this one has not completed within
    /// `duration`; when the time runs out, this future is released (and so cancelled, unless
    /// something else depends on it).
    ///
    /// ```swift
    /// let product = try await loadProduct(id).timeout(after: .seconds(10)).value
    /// ```
    ///
    /// The deadline is fixed when `timeout` is called and measured on `clock`, so a test can
    /// pass a manual clock and never sleep.
    ///
    /// - Parameters:
    ///   - duration: The time limit; one longer than a century counts as a century (Swift's
    ///     clocks cannot schedule a later deadline).
    ///   - clock: The clock that measures it; `ContinuousClock` unless you pass another.
    /// - Returns: A derived future with this future's result, or ``TimeoutError``.
    public final func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Future<Value> {
        let derived = Future<Value>(derivedFrom: self)
        let deadline = clock.now.advanced(by: schedulable(duration))
        let timer = Task {
            try await clock.sleep(until: deadline, tolerance: nil)
            if derived.settle(with: .failure(TimeoutError(limit: duration))) {
                releaseChain(from: self)
            }
        }
        derived.addCancellationHandler { timer.cancel() }
        whenComplete(retainingDependent: true) { source in
            let completion = derived.completeDeferringCallbacks(with: Future.outcome(of: source))
            if case .completed = completion {
                timer.cancel()
            }
            return completion.pending
        }
        return derived
    }
}
