import Futures
import Testing

@Suite("TimeoutError")
struct TimeoutErrorTests {
    @Test func descriptionSaysWhatHappenedInWords() {
        #expect(TimeoutError(limit: .seconds(3)).description == "The operation did not complete within 3.0 seconds.")
    }

    @Test func theLimitIsADurationThatCodeCanCompare() async throws {
        let promise = Promise<Int>()
        let error = await #expect(throws: TimeoutError.self) {
            try await promise.timeout(after: .milliseconds(10)).value
        }
        #expect(error?.limit == .milliseconds(10))
        #expect(try #require(error?.limit) < .seconds(1))
        promise.resolve(with: 1)
    }
}
