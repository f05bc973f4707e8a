// MARK: - Chaining

/// Feeds the output of `inner` into `outer`, giving one function from `inner`'s input to
/// `outer`'s output.
///
/// ```swift
/// let networking = chain(Endpoint.product, to: URLSession.shared.request)
/// let future = networking(7)   // Product.ID -> Endpoint -> Future<Data>
/// ```
///
/// - Parameters:
///   - inner: Runs first.
///   - outer: Runs on `inner`'s result.
/// - Returns: `{ outer(inner($0)) }`.
@_disfavoredOverload
public func chain<A, B, C>(
    _ inner: @escaping (A) -> B,
    to outer: @escaping (B) -> C
) -> (A) -> C {
    { outer(inner($0)) }
}

/// Feeds the output of `inner` into a curried instance method, so that a method can be chained
/// without knowing the instance in advance.
///
/// `Future.decoded` names the method `decoded()` of *some* future, as a function
/// `(Future<Data>) -> () -> Future<T>`; this overload calls it on whatever `inner` returns:
///
/// ```swift
/// let networking = chain(Endpoint.product, to: URLSession.shared.request)
/// let productNetworking: (Product.ID) -> Future<Product> = chain(networking, to: Future.decoded)
/// ```
///
/// - Parameters:
///   - inner: Runs first.
///   - outer: A curried method, such as `Future.decoded`, applied to `inner`'s result and called.
/// - Returns: `{ outer(inner($0))() }`.
@_disfavoredOverload
public func chain<A, B, C>(
    _ inner: @escaping (A) -> B,
    to outer: @escaping (B) -> () -> C
) -> (A) -> C {
    { outer(inner($0))() }
}

/// Chains two asynchronous steps: the value of `inner`'s future feeds `outer`.
///
/// ```swift
/// let loadProductReviews = chain(loadProduct, to: { product in loadReviews(for: product) })
/// let reviews: Future<[Review]> = loadProductReviews(7)
/// ```
///
/// - Parameters:
///   - inner: Starts the first step.
///   - outer: Starts the second step with the first step's value.
/// - Returns: A function whose future fails with the first error of either step. Cancelling
///   it cancels the step in flight.
@_disfavoredOverload
public func chain<A, B, C>(
    _ inner: @escaping (A) -> Future<B>,
    to outer: @escaping @Sendable (B) -> Future<C>
) -> (A) -> Future<C> {
    { inner($0).flatMap(outer) }
}

// MARK: - Sendable chaining

/// Chains two `@Sendable` functions into a `@Sendable` function.
///
/// Chosen over the plain overload when both functions are `Sendable` (static methods, methods
/// of `Sendable` types such as `URLSession.request`, and `@Sendable` closures are), so the
/// result can be stored in a `Sendable` service or captured by a combinator.
public func chain<A, B, C>(
    _ inner: @escaping @Sendable (A) -> B,
    to outer: @escaping @Sendable (B) -> C
) -> @Sendable (A) -> C {
    { outer(inner($0)) }
}

/// Chains a `@Sendable` function into a curried `@Sendable` method, giving a `@Sendable`
/// function.
public func chain<A, B, C>(
    _ inner: @escaping @Sendable (A) -> B,
    to outer: @escaping @Sendable (B) -> () -> C
) -> @Sendable (A) -> C {
    { outer(inner($0))() }
}

/// Chains two `@Sendable` asynchronous steps into a `@Sendable` function.
public func chain<A, B, C>(
    _ inner: @escaping @Sendable (A) -> Future<B>,
    to outer: @escaping @Sendable (B) -> Future<C>
) -> @Sendable (A) -> Future<C> {
    { inner($0).flatMap(outer) }
}
