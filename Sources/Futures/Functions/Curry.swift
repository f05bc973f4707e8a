// MARK: - Currying

/// Turns a two-argument function into a function that takes the first argument and returns a
/// function of the second.
///
/// Curried functions partially apply by calling them, and chain with ``chain(_:to:)-1v2cu``:
///
/// ```swift
/// func load(_ shop: URL, _ id: Product.ID) -> Future<Product> { fetchProduct(id, from: shop) }
/// let loadFromShop = curry(load)(shopURL)   // (Product.ID) -> Future<Product>
/// ```
///
/// - Parameter function: A function of two arguments.
/// - Returns: `{ a in { b in function(a, b) } }`.
public func curry<A, B, C>(_ function: @escaping (A, B) -> C) -> (A) -> (B) -> C {
    { a in { b in function(a, b) } }
}

/// Turns a three-argument function into a chain of one-argument functions.
///
/// - Parameter function: A function of three arguments.
/// - Returns: `{ a in { b in { c in function(a, b, c) } } }`.
public func curry<A, B, C, D>(_ function: @escaping (A, B, C) -> D) -> (A) -> (B) -> (C) -> D {
    { a in { b in { c in function(a, b, c) } } }
}

/// Turns a curried function back into a function of two arguments.
///
/// - Parameter function: A curried function.
/// - Returns: `{ a, b in function(a)(b) }`.
public func uncurry<A, B, C>(_ function: @escaping (A) -> (B) -> C) -> (A, B) -> C {
    { a, b in function(a)(b) }
}
