import Dispatch
import Futures
import Testing

@Suite("Future+Observe")
struct FutureObserveTests {
    @Test func observeOnAQueueRunsTheObserverOnThatQueue() async throws {
        let queue = DispatchQueue(label: "observe-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "observe-test")
        let promise = Promise<Int>()
        let done = Promise<String?>()
        promise.observe(on: queue) { _ in done.resolve(with: DispatchQueue.getSpecific(key: key)) }
        promise.resolve(with: 1)
        #expect(try await done.value(within: .seconds(30)) == "observe-test")
    }

    @Test func observersOnOneSerialQueueRunInRegistrationOrder() async throws {
        let queue = DispatchQueue(label: "observe-order")
        let order = Recorder<Int>()
        let done = Promise<Void>()
        let promise = Promise<Int>()
        for index in 0..<50 {
            promise.observe(on: queue) { _ in
                order.append(index)
                if index == 49 { done.resolve() }
            }
        }
        promise.resolve(with: 1)
        try await done.value(within: .seconds(30))
        #expect(order.values == Array(0..<50))
    }
}
