// MARK: - Between futures and async/await

/// Turns a function that returns a future into an `async` function, so a future-based loader
/// plugs into async code.
///
/// ```swift
/// let load: @Sendable (Product.ID) async throws -> Product = asyncFunction(from: productNetworking)
/// let product = try await load(7)
/// ```
///
/// Cancelling the calling task releases the future (see ``Future/value``).
///
/// - Parameter function: Starts the work and returns its future.
/// - Returns: An async function that awaits that future's value.
public func asyncFunction<A, B>(
    from function: @escaping @Sendable (A) -> Future<B>
) -> @Sendable (A) async throws -> B {
    { input in try await function(input).value }
}

/// Turns an `async` function into one that returns a future, so async code plugs into
/// future-based chains.
///
/// ```swift
/// let loadProduct: (Product.ID) -> Future<Product> = futureFunction(from: api.product(id:))
/// ```
///
/// Each call starts a `Task`; cancelling the returned future cancels it.
///
/// - Parameter function: The async work.
/// - Returns: A function that starts `function` and returns the future of its result.
public func futureFunction<A: Sendable, B>(
    from function: @escaping @Sendable (A) async throws -> B
) -> @Sendable (A) -> Future<B> {
    { input in Future { try await function(input) } }
}
