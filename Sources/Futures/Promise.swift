/// The writable side of a ``Future``: whoever does the work holds the promise and completes it.
///
/// A `Promise` *is* a `Future`, so a function can create a promise, start the work, and return
/// the promise where a future is expected:
///
/// ```swift
/// func request(_ endpoint: Endpoint) -> Future<Data> {
///     let promise = Promise<Data>()
///     guard let url = endpoint.url else {
///         promise.reject(with: Endpoint.Error.invalidURL)
///         return promise
///     }
///     let task = session.dataTask(with: url) { data, _, error in
///         if let error {
///             promise.reject(with: error)
///         } else {
///             promise.resolve(with: data ?? Data())
///         }
///     }
///     promise.onCancel { task.cancel() }
///     task.resume()
///     return promise
/// }
/// ```
///
/// The first completion wins: later calls to ``resolve(with:isolation:)``,
/// ``reject(with:isolation:)`` or ``complete(with:isolation:)`` are ignored and return `false`.
///
/// Observers run as the future's contract says (see ``Future``); those isolated to the actor
/// that completes the promise run before the completing call returns.
///
/// - Note: A promise adds no state of its own: its state is the ``Future``'s, guarded by the
///   future's lock, which is why it restates the future's `@unchecked Sendable`.
public final class Promise<Value: Sendable>: Future<Value>, @unchecked Sendable {
    /// Creates a pending promise.
    ///
    /// Complete it exactly once; if it is dropped while still pending, its observers fail with
    /// ``BrokenPromise``, which in debug builds names where it was created.
    ///
    /// - Parameters:
    ///   - file: Where the promise is made (filled in for you).
    ///   - line: The line where the promise is made (filled in for you).
    @inlinable
    public override init(file: StaticString = #fileID, line: UInt = #line) {
        super.init(file: file, line: line)
        isPromise = true
    }

    /// Completes the promise with `value`, running every observer.
    ///
    /// Observers isolated to the caller's actor run before this returns, in their place in
    /// registration order: a `@MainActor` view model that resolves a promise sees its own
    /// observers' work done on the next line. Observers isolated to another actor run there
    /// later.
    ///
    /// - Parameters:
    ///   - value: The promise's value.
    ///   - isolation: The caller's actor, or `nil` in nonisolated code; leave it to its default.
    /// - Returns: `true` if this call completed the promise, `false` if it had already
    ///   completed (the value is then ignored).
    @discardableResult
    @inlinable
    public func resolve(with value: Value, isolation: isolated (any Actor)? = #isolation) -> Bool {
        settle(with: .success(value), isolation: isolation)
    }

    /// Completes the promise with `error`, running every observer.
    ///
    /// Observers isolated to the caller's actor run before this returns (see
    /// ``resolve(with:isolation:)``).
    ///
    /// - Parameters:
    ///   - error: The promise's error.
    ///   - isolation: The caller's actor, or `nil` in nonisolated code; leave it to its default.
    /// - Returns: `true` if this call completed the promise, `false` if it had already
    ///   completed (the error is then ignored).
    @discardableResult
    @inlinable
    public func reject(with error: any Error, isolation: isolated (any Actor)? = #isolation) -> Bool {
        settle(with: .failure(error), isolation: isolation)
    }

    /// Completes the promise with `result`, running every observer.
    ///
    /// Observers isolated to the caller's actor run before this returns (see
    /// ``resolve(with:isolation:)``).
    ///
    /// - Parameters:
    ///   - result: The promise's result.
    ///   - isolation: The caller's actor, or `nil` in nonisolated code; leave it to its default.
    /// - Returns: `true` if this call completed the promise, `false` if it had already
    ///   completed.
    @discardableResult
    @inlinable
    public func complete(
        with result: Result<Value, any Error>,
        isolation: isolated (any Actor)? = #isolation
    ) -> Bool {
        settle(with: result, isolation: isolation)
    }

    /// Registers work to stop when the promise is cancelled: the URLSession task, the `Task`.
    ///
    /// `handler` runs once, when ``Future/cancel(isolation:)`` cancels the promise — directly, or because
    /// every future derived from it was cancelled. If the promise was already cancelled, it
    /// runs at once; if the promise completed some other way, it is dropped and never runs.
    ///
    /// ```swift
    /// let promise = Promise<Data>()
    /// let task = Task { try await work(promise) }
    /// promise.onCancel { task.cancel() }
    /// ```
    @inlinable
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        addCancellationHandler(handler)
    }
}

extension Promise where Value == Void {
    /// Completes a `Promise<Void>`.
    ///
    /// Observers isolated to the caller's actor run before this returns (see
    /// ``Promise/resolve(with:isolation:)``).
    ///
    /// - Parameter isolation: The caller's actor, or `nil` in nonisolated code; leave it to its
    ///   default.
    /// - Returns: `true` if this call completed the promise.
    @discardableResult
    @inlinable
    public func resolve(isolation: isolated (any Actor)? = #isolation) -> Bool {
        resolve(with: (), isolation: isolation)
    }
}
