import FunctionalNetworkingTesting
import Futures
import Testing

@Suite("asyncFunction and futureFunction")
struct AsyncFunctionsTests {
    @Test func asyncFunctionAwaitsTheFuturesValue() async throws {
        let loadName: @Sendable (Int) -> Future<String> = { Future(value: "product \($0)") }
        let load = asyncFunction(from: loadName)
        #expect(try await load(7) == "product 7")
    }

    @Test func asyncFunctionThrowsTheFuturesError() async {
        let failing: @Sendable (Int) -> Future<String> = { _ in Future(error: TestError()) }
        await #expect(throws: TestError.self) { try await asyncFunction(from: failing)(1) }
    }

    @Test func cancellingTheCallerOfAnAsyncFunctionCancelsTheFuture() async throws {
        let promise = Promise<String>()
        let cancelled = Promise<Void>()
        promise.onCancel { cancelled.resolve() }
        let load = asyncFunction(from: { (_: Int) in promise })
        let task = Task { try await load(1) }
        task.cancel()
        try await cancelled.value(within: .seconds(30))
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func futureFunctionStartsTheAsyncWorkAndCompletesWithItsValue() async throws {
        let double = futureFunction(from: { (value: Int) async throws -> Int in value * 2 })
        #expect(try await double(21).value(within: .seconds(30)) == 42)
    }

    @Test func futureFunctionFailsWithTheAsyncError() async {
        let failing = futureFunction(from: { (_: Int) async throws -> Int in throw TestError() })
        #expect(await failing(1).result(within: .seconds(30)).error as? TestError == TestError())
    }

    @Test func cancellingAFutureFromFutureFunctionCancelsItsTask() async throws {
        let clock = TestClock()
        let sawCancellation = Promise<Bool>()
        let slow = futureFunction(from: { (_: Int) async throws -> Int in
            do {
                try await clock.sleep(for: .seconds(60))
                sawCancellation.resolve(with: false)
            } catch {
                sawCancellation.resolve(with: error is CancellationError)
            }
            return 0
        })
        let future = slow(1)
        try await clock.waitForSleepers(count: 1)
        future.cancel()
        #expect(try await sawCancellation.value(within: .seconds(30)))
    }

    @Test func theTwoConvertersRoundTrip() async throws {
        let original: @Sendable (Int) -> Future<Int> = { Future(value: $0 + 1) }
        let roundTripped = futureFunction(from: asyncFunction(from: original))
        #expect(try await roundTripped(1).value(within: .seconds(30)) == 2)
    }
}
