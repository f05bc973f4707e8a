import Futures
import Testing

@Suite("Future+All")
struct FutureAllTests {
    @Test func allGivesTheValuesInInputOrder() {
        let promises = (0..<5).map { _ in Promise<Int>() }
        let all = Future.all(promises)
        for index in [3, 1, 4, 0, 2] {
            promises[index].resolve(with: index * 10)
        }
        #expect(all.result?.success == [0, 10, 20, 30, 40])
    }

    @Test func allOfNothingIsAnEmptyArray() {
        #expect(Future.all([Future<Int>]()).result?.success == [])
    }

    @Test func allFailsFastAndReleasesThePendingFutures() {
        let promises = (0..<3).map { _ in Promise<Int>() }
        let all = Future.all(promises)
        promises[1].reject(with: TestError())
        #expect(all.result?.error as? TestError == TestError())
        #expect(promises[0].isCancelled)
        #expect(promises[2].isCancelled)
    }

    @Test func cancellingAllReleasesEveryInput() {
        let promises = (0..<3).map { _ in Promise<Int>() }
        let all = Future.all(promises)
        promises[0].resolve(with: 1)
        all.cancel()
        #expect(promises[1].isCancelled)
        #expect(promises[2].isCancelled)
        #expect(promises[0].result?.success == 1)
    }

    @Test func allDoesNotCancelAFutureThatSomethingElseStillNeeds() {
        let shared = Promise<Int>()
        let other = shared.map { $0 }
        let all = Future.all([shared, Promise<Int>()])
        all.cancel()
        #expect(shared.isPending)
        other.cancel()
        #expect(shared.isCancelled)
    }

    @Test func allFailsWithBrokenPromiseWhenAnInputPromiseIsDropped() throws {
        let seen = Recorder<Result<[Int], any Error>>()
        let kept = Promise<Int>()
        let all: Future<[Int]>
        do {
            let dropped = Promise<Int>()
            all = Future.all([kept, dropped.map { $0 }, dropped])
        }
        all.observe { seen.append($0) }
        let result = try #require(seen.values.first)
        #expect(result.error is BrokenPromise)
        #expect(kept.isCancelled)  // failing fast releases the input still pending
    }

    @Test func aPendingAllDroppedWithItsInputsIsFreed() {
        weak var weakAll: Future<[Int]>?
        weak var weakInput: Promise<Int>?
        do {
            let input = Promise<Int>()
            weakInput = input
            weakAll = Future.all([input, input.map { $0 }])
        }
        #expect(weakAll == nil)
        #expect(weakInput == nil)
    }

    @Test func raceTakesTheFirstResultAndReleasesTheOthers() {
        let slow = Promise<String>()
        let fast = Promise<String>()
        let winner = Future.race([slow, fast])
        fast.resolve(with: "fast")
        #expect(winner.result?.success == "fast")
        #expect(slow.isCancelled)
    }

    @Test func aRaceWithNoFuturesFailsAtOnceSayingWhy() {
        let none = Future.race([Future<Int>]())
        let error = none.result?.error as? EmptyRace
        #expect(error == EmptyRace())
        #expect(error?.description == "Future.race was given no futures; a race needs at least one entrant to complete.")
    }

    @Test func raceTakesTheFirstFailureToo() {
        let slow = Promise<String>()
        let failing = Promise<String>()
        let winner = Future.race([slow, failing])
        failing.reject(with: TestError())
        #expect(winner.result?.error as? TestError == TestError())
    }

    @Test func zipPairsTwoValues() throws {
        let number = Promise<Int>()
        let name = Promise<String>()
        let pair = zip(number, name)
        name.resolve(with: "seven")
        #expect(pair.isPending)
        number.resolve(with: 7)
        let (first, second) = try #require(pair.result).get()
        #expect(first == 7)
        #expect(second == "seven")
    }

    @Test func zipOfThreeGivesATriple() throws {
        let triple = zip(Future(value: 1), Future(value: "two"), Future(value: 3.0))
        let (a, b, c) = try #require(triple.result).get()
        #expect(a == 1 && b == "two" && c == 3.0)
    }

    @Test func zipFailsFastAndReleasesTheOtherFuture() {
        let number = Promise<Int>()
        let name = Promise<String>()
        let pair = zip(number, name)
        name.reject(with: TestError())
        #expect(pair.result?.error as? TestError == TestError())
        #expect(number.isCancelled)
    }

    @Test func zipOfThreeFailsFast() {
        let pending = Promise<Int>()
        let triple = zip(pending, Future<String>(error: TestError()), Promise<Double>())
        #expect(triple.result?.error as? TestError == TestError())
    }
}
