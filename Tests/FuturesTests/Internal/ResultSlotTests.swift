import Testing

@testable import Futures

@Suite("ResultSlot")
struct ResultSlotTests {
    /// Counts its own deinitialisations, to show what a slot releases.
    final class Tracked: Sendable {
        let deinits: Counter
        let name: String

        init(_ name: String, deinits: Counter) {
            self.name = name
            self.deinits = deinits
        }

        deinit { deinits.increment() }
    }

    /// A value too large for the slot's bytes.
    struct Large: Sendable {
        var numbers: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7, 8, 9)
        var object: Tracked
    }

    /// A value that is not bitwise-takable (a weak reference), which must be boxed.
    struct WeaklyHeld: @unchecked Sendable {
        weak var object: Tracked?
        let strong: Tracked
    }

    struct TrackedError: Error {
        let object: Tracked
    }

    @Test func anEmptySlotHoldsNothingAndDestroyingItDoesNothing() {
        var slot = ResultSlot()
        #expect(slot.isEmpty)
        #expect(slot.load(as: Int.self) == nil)
        slot.destroy(as: Int.self)
        #expect(slot.isEmpty)
    }

    @Test func aTrivialValueIsKeptInlineAndLoadsAsStored() {
        #expect(ResultSlot.fitsInline(Int.self))
        var slot = ResultSlot()
        slot.store(Result<Int, any Error>.success(42))
        #expect(!slot.isEmpty)
        #expect(slot.load(as: Int.self)?.success == 42)
        #expect(slot.load(as: Int.self)?.success == 42)  // loading leaves it in place
        #expect(slot.take(as: Int.self)?.success == 42)
        #expect(slot.isEmpty)
    }

    @Test func aClassReferenceIsKeptInlineAndReleasedWhenDestroyed() {
        let deinits = Counter()
        var slot = ResultSlot()
        do {
            slot.store(Result<Tracked, any Error>.success(Tracked("inline", deinits: deinits)))
        }
        #expect(ResultSlot.fitsInline(Tracked.self))
        #expect(slot.load(as: Tracked.self)?.success?.name == "inline")
        #expect(deinits.value == 0)
        slot.destroy(as: Tracked.self)
        #expect(slot.isEmpty)
        #expect(deinits.value == 1)
    }

    @Test func aValueLargerThanTheBytesIsBoxedAndReleasedWhenDestroyed() {
        #expect(MemoryLayout<Large>.size > ResultSlot.capacity)
        #expect(!ResultSlot.fitsInline(Large.self))
        let deinits = Counter()
        var slot = ResultSlot()
        slot.store(Result<Large, any Error>.success(Large(object: Tracked("boxed", deinits: deinits))))
        let loaded = slot.load(as: Large.self)?.success
        #expect(loaded?.numbers.8 == 9)
        #expect(loaded?.object.name == "boxed")
        slot.destroy(as: Large.self)
        #expect(deinits.value == 0)  // `loaded` still holds it
        _ = consume loaded
        #expect(deinits.value == 1)
    }

    @Test func aValueThatIsNotBitwiseTakableIsBoxed() {
        #expect(!ResultSlot.fitsInline(WeaklyHeld.self))
        let deinits = Counter()
        var slot = ResultSlot()
        do {
            let object = Tracked("weak", deinits: deinits)
            slot.store(Result<WeaklyHeld, any Error>.success(WeaklyHeld(object: object, strong: object)))
        }
        #expect(slot.load(as: WeaklyHeld.self)?.success?.object?.name == "weak")
        slot.destroy(as: WeaklyHeld.self)
        #expect(deinits.value == 1)
    }

    @Test func anErrorLoadsAsAFailureAndIsReleasedWhenDestroyed() {
        let deinits = Counter()
        var slot = ResultSlot()
        slot.store(Result<Int, any Error>.failure(TrackedError(object: Tracked("error", deinits: deinits))))
        let error = slot.load(as: Int.self)?.error as? TrackedError
        #expect(error?.object.name == "error")
        _ = consume error
        #expect(deinits.value == 0)
        slot.destroy(as: Int.self)
        #expect(slot.isEmpty)
        #expect(deinits.value == 1)
    }

    @Test func takingHandsTheResultOverAndLeavesTheSlotEmpty() {
        let deinits = Counter()
        var slot = ResultSlot()
        slot.store(Result<Tracked, any Error>.success(Tracked("taken", deinits: deinits)))
        var taken = slot.take(as: Tracked.self)
        #expect(slot.isEmpty)
        #expect(taken?.success?.name == "taken")
        #expect(deinits.value == 0)
        taken = nil
        #expect(deinits.value == 1)
        slot.destroy(as: Tracked.self)  // empty: releases nothing more
        #expect(deinits.value == 1)
    }

    @Test func aStringAndAnArrayRoundTrip() {
        var slot = ResultSlot()
        slot.store(Result<[String], any Error>.success(["iPad", "Pro"]))
        #expect(slot.load(as: [String].self)?.success == ["iPad", "Pro"])
        slot.destroy(as: [String].self)
    }
}
