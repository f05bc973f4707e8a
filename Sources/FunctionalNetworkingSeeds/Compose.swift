// MARK: - Composition

/// Composes two functions: the result runs `first`, then `second` on its output.
///
/// The operation of `Futures`' `chain(_:to:)`, under the name and argument order of "Building
/// networking layer using functions", so that its code compiles as written (the article's own
/// use, a request modifier composed with a transport, is the `async` overload's). On two plain
/// functions:
///
/// ```swift
/// let describe = compose({ (id: Int) in "/products/\(id)" }, { path in path.count })
/// describe(7)   // 11
/// ```
///
/// - Parameters:
///   - first: Runs first.
///   - second: Runs on `first`'s result.
/// - Returns: `{ second(first($0)) }`.
@_disfavoredOverload
public func compose<A, B, C>(
    _ first: @escaping (A) -> B,
    _ second: @escaping (B) -> C
) -> (A) -> C {
    { second(first($0)) }
}

/// Composes a function with an `async` function, giving an `async` function: the shape of a
/// request modifier composed with a transport, an authorised transport.
///
/// ```swift
/// let authorized = compose(bearerTokenModifier(token), URLSession.shared.transport)
/// let (data, response) = try await authorized(request)
/// ```
///
/// - Parameters:
///   - first: Runs first.
///   - second: Runs on `first`'s result and is awaited.
/// - Returns: `{ try await second(first($0)) }`.
public func compose<A, B, C>(
    _ first: @escaping @Sendable (A) -> B,
    _ second: @escaping @Sendable (B) async throws -> C
) -> @Sendable (A) async throws -> C {
    { try await second(first($0)) }
}

/// Composes two `@Sendable` functions into a `@Sendable` function.
///
/// Chosen over the plain overload when both functions are `Sendable`, so that the result can be
/// stored in a `Sendable` value.
///
/// - Parameters:
///   - first: Runs first.
///   - second: Runs on `first`'s result.
/// - Returns: `{ second(first($0)) }`.
public func compose<A, B, C>(
    _ first: @escaping @Sendable (A) -> B,
    _ second: @escaping @Sendable (B) -> C
) -> @Sendable (A) -> C {
    { second(first($0)) }
}
