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
public func combine<A, B, C>(_ value: A, with closure: @escaping (A, B) -> C) -> (B) -> C {
    { closure(value, $0) }
}
