import Futures
import Testing

@Suite("TimeoutError")
struct TimeoutErrorTests {
    @Test func descriptionSaysWhatHappenedInWords() {
        #expect(TimeoutError(limit: "3.0 seconds").description == "The operation did not complete within 3.0 seconds.")
    }
}
