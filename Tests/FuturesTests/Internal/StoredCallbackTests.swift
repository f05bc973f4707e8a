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
}
