// MARK: - Partial application

/// Fixes the argument of `closure`, giving a function that needs none.
///
/// This is partial application (C++ calls it `bind`). It turns a loader and an input into the
/// `() -> Future<Product>` that a screen needs:
///
/// ```swift
/// let loading = combine(id, with: URLSession.shared.productNetworking)
/// let screen = ProductScreen(loading: loading)
/// ```
///
/// - Parameters:
///   - value: The argument to fix.
///   - closure: The function to call with it.
/// - Returns: A function that calls `closure(value)` each time it is called.
@_disfavoredOverload
public func combine<A, B>(_ value: A, with closure: @escaping (A) -> B) -> () -> B {
    { closure(value) }
}

/// Fixes the first argument of a two-argument function, giving a one-argument function.
///
/// ```swift
/// let loadFromShop = combine(shopURL, with: loadProduct)   // (Product.ID) -> Future<Product>
/// ```
///
/// - Parameters:
///   - value: The first argument to fix.
///   - closure: The function to call with it and the remaining argument.
/// - Returns: A function `(B) -> C` that calls `closure(value, b)`.
@_disfavoredOverload
public func combine<A, B, C>(_ value: A, with closure: @escaping (A, B) -> C) -> (B) -> C {
    { closure(value, $0) }
}

// MARK: - Sendable partial application

/// Fixes the argument of a `@Sendable` function, giving a `@Sendable` function that needs none.
///
/// Chosen over ``combine(_:with:)-(_,_)`` when the function and the value are `Sendable`, so
/// that the result can be stored in a `Sendable` service or used inside a combinator:
///
/// ```swift
/// let loadSeven: @Sendable () -> Future<Product> = combine(7, with: productNetworking)
/// ```
public func combine<A: Sendable, B>(
    _ value: A,
    with closure: @escaping @Sendable (A) -> B
) -> @Sendable () -> B {
    { closure(value) }
}

/// Fixes the first argument of a `@Sendable` two-argument function, giving a `@Sendable`
/// one-argument function.
public func combine<A: Sendable, B, C>(
    _ value: A,
    with closure: @escaping @Sendable (A, B) -> C
) -> @Sendable (B) -> C {
    { closure(value, $0) }
}
