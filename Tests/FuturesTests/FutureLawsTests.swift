import Futures
import Testing

/// A small, seeded generator, so that a failing case can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The functor and monad laws, checked on generated values, completed and pending, values and
/// failures.
@Suite("Future laws")
struct FutureLawsTests {
    static let cases = 500

    /// A future of `value`: already completed, or completed after the chain is built.
    static func future(_ value: Result<Int, TestError>, pending: Bool) -> (Future<Int>, () -> Void) {
        let result = value.mapError { $0 as any Error }
        guard pending else { return (Future(result: result), {}) }
        let promise = Promise<Int>()
        return (promise, { promise.complete(with: result) })
    }

    static func outcome(_ future: Future<Int>) -> String {
        switch future.result {
        case .success(let value): "value \(value)"
        case .failure(let error): "error \(error)"
        case nil: "pending"
        }
    }

    /// A function drawn from a few shapes, some of which fail.
    static func function(_ pick: UInt64, _ constant: Int) -> @Sendable (Int) -> Future<Int> {
        switch pick % 4 {
        case 0: { Future(value: $0 &+ constant) }
        case 1: { Future(value: $0 &* constant) }
        case 2: { $0 % 3 == 0 ? Future(error: TestError("f\(constant)")) : Future(value: $0 &- constant) }
        default:
            { value in
                let promise = Promise<Int>()
                promise.resolve(with: value ^ constant)
                return promise
            }
        }
    }

    static func input(_ rng: inout SplitMix64) -> (Result<Int, TestError>, Bool) {
        let value = Int(truncatingIfNeeded: rng.next() % 10_000) - 5_000
        let failed = rng.next() % 5 == 0
        return (failed ? .failure(TestError("input \(value)")) : .success(value), rng.next() % 2 == 0)
    }

    @Test func mapByIdentityChangesNothing() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<Self.cases {
            let (value, pending) = Self.input(&rng)
            let (future, complete) = Self.future(value, pending: pending)
            let mapped = future.map { $0 }
            complete()
            #expect(Self.outcome(mapped) == Self.outcome(future))
        }
    }

    @Test func mapOfACompositionIsTheCompositionOfMaps() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<Self.cases {
            let (value, pending) = Self.input(&rng)
            let a = Int(truncatingIfNeeded: rng.next() % 100)
            let b = Int(truncatingIfNeeded: rng.next() % 100)
            let f: @Sendable (Int) -> Int = { $0 &* a }
            let g: @Sendable (Int) -> Int = { $0 &+ b }
            let (first, completeFirst) = Self.future(value, pending: pending)
            let (second, completeSecond) = Self.future(value, pending: pending)
            let composed = first.map { g(f($0)) }
            let chained = second.map(f).map(g)
            completeFirst()
            completeSecond()
            #expect(Self.outcome(composed) == Self.outcome(chained))
        }
    }

    @Test func flatMapWithAReadyFutureIsTheIdentity() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<Self.cases {
            let (value, pending) = Self.input(&rng)
            let (future, complete) = Self.future(value, pending: pending)
            let flatMapped = future.flatMap { Future(value: $0) }
            complete()
            #expect(Self.outcome(flatMapped) == Self.outcome(future))
        }
    }

    @Test func aReadyFutureFlatMappedIntoAFunctionIsTheFunctionsFuture() {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<Self.cases {
            let value = Int(truncatingIfNeeded: rng.next() % 10_000)
            let f = Self.function(rng.next(), Int(truncatingIfNeeded: rng.next() % 50) + 1)
            #expect(Self.outcome(Future(value: value).flatMap(f)) == Self.outcome(f(value)))
        }
    }

    @Test func flatMapIsAssociative() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<Self.cases {
            let (value, pending) = Self.input(&rng)
            let f = Self.function(rng.next(), Int(truncatingIfNeeded: rng.next() % 50) + 1)
            let g = Self.function(rng.next(), Int(truncatingIfNeeded: rng.next() % 50) + 1)
            let (first, completeFirst) = Self.future(value, pending: pending)
            let (second, completeSecond) = Self.future(value, pending: pending)
            let left = first.flatMap(f).flatMap(g)
            let right = second.flatMap { f($0).flatMap(g) }
            completeFirst()
            completeSecond()
            #expect(Self.outcome(left) == Self.outcome(right))
        }
    }
}
