import Futures
import Testing

@Suite("TimeoutError")
struct TimeoutErrorTests {
    @Test func descriptionSaysWhatHappenedInWords() {
        #expect(TimeoutError(limit: .seconds(3)).description == "The operation did not complete within 3.0 seconds.")
    }
}
