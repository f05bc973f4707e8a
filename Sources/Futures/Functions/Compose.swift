// MARK: - Composition

/// Composes two functions: the result runs `first`, then `second` on its output.
///
/// The same operation as ``chain(_:to:)-(_,_)``, under its usual functional name and argument
/// order. A request modifier composed with a transport gives an authorised transport:
///
/// ```swift
/// let authorizedRequest = compose(tokenRequestModifier(token), { request in request })
/// ```
///
/// - Parameters:
///   - first: Runs first.
///   - second: Runs on `first`'s result.
/// - Returns: `{ second(first($0)) }`.
public func compose<A, B, C>(
    _ first: @escaping (A) -> B,
    _ second: @escaping (B) -> C
) -> (A) -> C {
    { second(first($0)) }
}
