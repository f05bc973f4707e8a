import Testing

@testable import Futures

@Suite("StoredCallback")
struct StoredCallbackTests {
    @Test func aCallbackReceivesTheCompletedFutureAndReturnsWhatItCompleted() {
        let source = Future(value: 5)
        let derived = Future<Int>()
        let received = Recorder<ObjectIdentifier>()
        let callback = StoredCallback { completed in
            received.append(ObjectIdentifier(completed))
            return derived
        }
        #expect(callback(source) === derived)
        #expect(received.values == [ObjectIdentifier(source)])
    }

    @Test func anObserverCallbackReadsTheResultOfItsFuture() {
        let seen = Recorder<String>()
        let callback = Future<String>.callback(observing: { result in
            seen.append((try? result.get()) ?? "failed")
        })
        #expect(callback(Future(value: "iPad")) == nil)
        #expect(callback(Future<String>(error: TestError())) == nil)
        #expect(seen.values == ["iPad", "failed"])
    }
}
