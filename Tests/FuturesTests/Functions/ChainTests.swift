import Futures
import Testing

/// A `Future` method of the same shape as the seed's `decoded()`: generic in its result and
/// taking no arguments, so that `Future.parsed` names a curried `(Future<String>) -> () -> Future<T>`.
extension Future where Value == String {
    func parsed<T: LosslessStringConvertible & Sendable>() -> Future<T> {
        map { text in
            guard let value = T(text) else { throw TestError("not a \(T.self): \(text)") }
            return value
        }
    }
}

@Suite("chain")
struct ChainTests {
    struct Endpoint: Equatable { let path: String }
    static func endpoint(_ id: Int) -> Endpoint { Endpoint(path: "/products/\(id)") }

    @Test func chainFeedsTheInnerOutputIntoTheOuterFunction() {
        let describe = chain(Self.endpoint, to: \.path.count)
        #expect(describe(42) == "/products/42".count)
    }

    @Test func chainAppliesACurriedInstanceMethodWithoutAnInstance() {
        let networking: (Endpoint) -> Future<String> = { endpoint in Future(value: String(endpoint.path.count)) }
        let fetch = chain(Self.endpoint, to: networking)
        let parsedCount: (Int) -> Future<Int> = chain(fetch, to: Future.parsed)
        #expect(parsedCount(7).result?.success == 11)
    }

    @Test func chainOfFutureFunctionsRunsTheStepsInOrder() {
        let order = Recorder<String>()
        let loadName: (Int) -> Future<String> = { id in
            order.append("name \(id)")
            return Future(value: "item\(id)")
        }
        let loadLength: @Sendable (String) -> Future<Int> = { name in
            order.append("length \(name)")
            return Future(value: name.count)
        }
        let both = chain(loadName, to: loadLength)
        #expect(both(3).result?.success == 5)
        #expect(order.values == ["name 3", "length item3"])
    }

    @Test func chainOfFutureFunctionsStopsAtTheFirstFailure() {
        let calls = Counter()
        let failing: (Int) -> Future<String> = { _ in Future(error: TestError()) }
        let both = chain(failing) { (name: String) -> Future<Int> in
            calls.increment()
            return Future(value: name.count)
        }
        #expect(both(1).result?.error as? TestError == TestError())
        #expect(calls.value == 0)
    }
}
