// MARK: - Waiting for many

extension Future {
    /// Returns a future of every value of `futures`, in input order.
    ///
    /// ```swift
    /// let products: Future<[Product]> = Future.all(ids.map(loadProduct))
    /// ```
    ///
    /// It fails fast: the first failure fails the result at once, and the futures still pending
    /// are released (cancelled, unless something else depends on them). An empty collection
    /// gives an empty array at once. Cancelling the returned future releases every input.
    ///
    /// - Parameter futures: The futures to wait for.
    /// - Returns: A future of their values, in the order of `futures`.
    @inlinable
    public static func all<Element>(
        _ futures: some Collection<Future<Element>>
    ) -> Future<[Element]> where Value == [Element] {
        let inputs = Array(futures)
        guard !inputs.isEmpty else {
            return Future(value: [])
        }
        let gather = Gather<Element>(count: inputs.count)
        return join(inputs) { index, value in
            gather.store(value, at: index)
        }
    }

    /// Returns a future of the result of whichever of `futures` completes first, value or
    /// error; the others are released (cancelled, unless something else depends on them).
    ///
    /// ```swift
    /// let fastest = Future.race([primary(id), mirror(id)])
    /// ```
    ///
    /// With no futures at all, the result fails at once with ``EmptyRace``: a race with no
    /// entrants would otherwise never complete.
    @inlinable
    public static func race(_ futures: some Collection<Future<Value>>) -> Future<Value> {
        let inputs = Array(futures)
        guard !inputs.isEmpty else { return Future(error: EmptyRace()) }
        return join(inputs) { _, value in value }
    }

    /// Derives one future from several: each success is offered to `accept`, whose non-nil
    /// answer completes the result; the first failure does. When the result completes, or is
    /// cancelled, every input is released.
    @inlinable
    static func join<Element>(
        _ inputs: [Future<Element>],
        accept: @escaping @Sendable (Int, Element) -> Value?
    ) -> Future<Value> {
        let derived = Future<Value>()
        for input in inputs {
            input.retainDependent()
        }
        // Promises are linked weakly, so that one dropped pending still fails the join with
        // BrokenPromise (and a dropped join and its inputs are freed).
        let links = inputs.map(UpstreamLink.init)
        let releaseInputs: @Sendable () -> Void = {
            for link in links {
                if let input = link.future {
                    releaseChain(from: input)
                }
            }
        }
        derived.addCancellationHandler(releaseInputs)
        for (index, input) in inputs.enumerated() {
            input.whenComplete(retainingDependent: false) { source in
                let completion: Completion
                switch Future<Element>.outcome(of: source) {
                case .success(let value):
                    guard let joined = accept(index, value) else { return nil }
                    completion = derived.completeDeferringCallbacks(with: .success(joined))
                case .failure(let error):
                    completion = derived.completeDeferringCallbacks(with: .failure(error))
                }
                if case .completed = completion {
                    releaseInputs()
                }
                return completion.pending
            }
        }
        return derived
    }
}

// MARK: - Zipping

/// Returns a future of both values, once both futures have succeeded.
///
/// ```swift
/// zip(loadProduct(id), loadReviews(id)).observe { result in
///     if case .success(let (product, reviews)) = result { show(product, reviews) }
/// }
/// ```
///
/// The first failure fails the result at once and releases the other future. Cancelling the
/// result releases both.
@inlinable
public func zip<A, B>(_ first: Future<A>, _ second: Future<B>) -> Future<(A, B)> {
    let gather = Gather<ZipPart<A, B>>(count: 2)
    let parts = [first.map { ZipPart<A, B>.first($0) }, second.map { ZipPart<A, B>.second($0) }]
    return Future<(A, B)>.join(parts) { index, part in
        guard let both = gather.store(part, at: index),
            case .first(let a) = both[0], case .second(let b) = both[1]
        else { return nil }
        return (a, b)
    }
}

/// One side of a `zip`, so that both sides fit one ``Gather``.
@usableFromInline
enum ZipPart<A: Sendable, B: Sendable>: Sendable {
    case first(A)
    case second(B)
}

/// Returns a future of all three values, once all three futures have succeeded.
///
/// The first failure fails the result at once and releases the others.
@inlinable
public func zip<A, B, C>(
    _ first: Future<A>, _ second: Future<B>, _ third: Future<C>
) -> Future<(A, B, C)> {
    zip(zip(first, second), third).map { pair, third in (pair.0, pair.1, third) }
}
