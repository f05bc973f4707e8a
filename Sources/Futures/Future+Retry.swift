// MARK: - Retrying

extension Future {
    /// Runs `operation` until its future succeeds, at most `maxAttempts` times, waiting as
    /// `backoff` says between attempts.
    ///
    /// Futures are eager, so retrying takes a function that starts the work anew:
    ///
    /// ```swift
    /// let product = Future.retry(maxAttempts: 3, backoff: .constant(.seconds(1))) {
    ///     loadProduct(id)
    /// }
    /// ```
    ///
    /// A `CancellationError` is never retried. When the attempts run out, or `shouldRetry`
    /// says no, the result fails with the last attempt's error, unchanged.
    ///
    /// - Parameters:
    ///   - maxAttempts: The most attempts in all, the first included; 1 or less means one
    ///     attempt, no retry.
    ///   - backoff: The wait before each retry; a wait longer than a century is a century.
    ///   - clock: The clock that measures the waits; a test passes a manual clock.
    ///   - shouldRetry: Whether an error is worth another attempt; every error by default.
    ///   - operation: Starts one attempt.
    /// - Returns: A future of the first successful attempt's value. Cancelling it cancels the
    ///   attempt in flight, or the wait, at once.
    public static func retry<C: Clock>(
        maxAttempts: Int = 3,
        backoff: Backoff = .exponential(),
        clock: C = ContinuousClock(),
        shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
        _ operation: @escaping @Sendable () -> Future<Value>
    ) -> Future<Value> where C.Duration == Duration {
        let derived = Future<Value>()

        @Sendable func start(_ number: Int) {
            guard derived.isPending else { return }
            let source = operation()
            if let length = derived.cycleLength(following: source) {
                // The attempt is the retried future itself, or waits for it.
                derived.settle(with: .failure(FutureCycle(length: length)))
                return
            }
            source.retainDependent()
            derived.setUpstream(source)
            source.whenComplete(retainingDependent: false) { completed in
                let result = Future.outcome(of: completed)
                guard case .failure(let error) = result, number < maxAttempts,
                    !(error is CancellationError), shouldRetry(error), derived.isPending
                else {
                    return derived.completeDeferringCallbacks(with: result).pending
                }
                let wait = backoff.delay(afterAttempt: number)
                if wait == .zero {
                    start(number + 1)
                    return nil
                }
                let deadline = clock.now.advanced(by: schedulable(wait))
                let sleeper = Task {
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                        start(number + 1)
                    } catch {
                        derived.settle(with: .failure(error))
                    }
                }
                derived.addCancellationHandler { sleeper.cancel() }
                return nil
            }
        }

        start(1)
        return derived
    }
}
