import Testing

@testable import Futures

@Suite("InlineList")
struct InlineListTests {
    final class Tracked: Sendable {
        let deinits: Counter
        init(deinits: Counter) { self.deinits = deinits }
        deinit { deinits.increment() }
    }

    @Test func aNewListIsEmpty() {
        let list = InlineList<Int>()
        #expect(list.isEmpty)
        var seen: [Int] = []
        list.forEach { seen.append($0) }
        #expect(seen.isEmpty)
    }

    @Test func elementsComeBackInInsertionOrder() {
        var list = InlineList<Int>()
        for number in 1...7 {
            list.append(number)
        }
        #expect(!list.isEmpty)
        var seen: [Int] = []
        list.forEach { seen.append($0) }
        #expect(seen == Array(1...7))
        let (first, rest) = list.takeAll()
        #expect(first == 1)
        #expect(rest == Array(2...7))
        #expect(list.isEmpty)
    }

    @Test func oneElementTakesNoArray() {
        var list = InlineList<Int>()
        list.append(taking: 3)
        let (first, rest) = list.takeAll()
        #expect(first == 3)
        #expect(rest == nil)
    }

    @Test func removeAllHandsTheElementsOverAndEmptiesTheList() {
        var list = InlineList<Int>()
        list.append(1)
        list.append(2)
        let taken = list.removeAll()
        #expect(list.isEmpty)
        var seen: [Int] = []
        taken.forEach { seen.append($0) }
        #expect(seen == [1, 2])
    }

    @Test func elementsAreReleasedWhenTakenAndDropped() {
        let deinits = Counter()
        var list = InlineList<Tracked>()
        list.append(Tracked(deinits: deinits))
        list.append(taking: Tracked(deinits: deinits))
        list.append(Tracked(deinits: deinits))
        #expect(deinits.value == 0)
        do {
            _ = list.takeAll()
        }
        #expect(deinits.value == 3)
        list.append(Tracked(deinits: deinits))  // the emptied list is reused
        list = InlineList()
        #expect(deinits.value == 4)
    }
}
