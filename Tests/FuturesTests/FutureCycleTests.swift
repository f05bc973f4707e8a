import Futures
import Testing

@Suite("FutureCycle")
struct FutureCycleTests {
    @Test func descriptionOfAFutureThatFollowsItselfSaysWhatHappenedAndHowToFixIt() {
        #expect(
            FutureCycle(length: 1).description
                == "A future cannot follow itself: a flatMap, flatMapError or retry handler returned the future it completes, "
                + "so that future would wait for itself and never complete. Return another future, or wrap a value in "
                + "Future(value:)."
        )
    }

    @Test func descriptionOfALongerCycleCountsTheFuturesBetween() {
        #expect(
            FutureCycle(length: 2).description
                == "A future cannot follow itself: a flatMap, flatMapError or retry handler returned a future that waits "
                + "for the one the handler completes, so none of them could ever complete. Return a future that does not "
                + "wait for the one the handler completes."
        )
        #expect(FutureCycle(length: 3).description.contains("returned a future that waits, through 1 other future, for the one"))
        #expect(FutureCycle(length: 5).description.contains("returned a future that waits, through 3 other futures, for the one"))
    }
}
