import Foundation
import FunctionalNetworking
import Futures
import Testing

@Suite("FuturesErrors+LocalizedError")
struct FuturesErrorsLocalizedErrorTests {
    @Test func theFuturesErrorsSayTheSameWordsInLocalizedDescriptionAsInDescription() {
        let errors: [any Error & CustomStringConvertible] = [
            BrokenPromise(file: "MyApp/Loader.swift", line: 42),
            BrokenPromise(file: nil, line: nil),
            TimeoutError(limit: .seconds(2)),
            EmptyRace(),
            FutureCycle(length: 1),
            FutureCycle(length: 3),
        ]
        for error in errors {
            let erased: any Error = error
            #expect(erased.localizedDescription == error.description)
        }
    }

    @Test func aFutureThatFollowsItselfSaysSoInLocalizedDescription() {
        let erased: any Error = FutureCycle(length: 1)
        #expect(erased.localizedDescription.hasPrefix("A future cannot follow itself: a flatMap, flatMapError or retry handler"))
    }
}
