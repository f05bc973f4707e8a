// The small classes of the closure floor, and OpenCombine's promise slot.

import Benchmark

/// A closure stored in a small class, called once: the floor of "observe, then resolve".
final class CallbackBox: @unchecked Sendable {
    var callback: (@Sendable (Int) -> Void)?

    init() {}

    @inline(__always) func fire(_ value: Int) {
        let callback = self.callback
        self.callback = nil
        callback?(value)
    }
}

/// Several closures in a small class, called once each.
final class FanOutBox: @unchecked Sendable {
    var callbacks: [@Sendable (Int) -> Void] = []

    init() {}

    @inline(__always) func fire(_ value: Int) {
        for callback in callbacks {
            callback(value)
        }
        callbacks = []
    }
}

/// A value in a small class: the inner "completed future" of the flatMap floor.
final class ValueBox: @unchecked Sendable {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }
}

/// Gathers values in input order and hands them over once the last one arrives.
final class GatherBox: @unchecked Sendable {
    var slots: [Int?]
    var remaining: Int
    let done: ([Int]) -> Void

    init(count: Int, done: @escaping ([Int]) -> Void) {
        slots = Array(repeating: nil, count: count)
        remaining = count
        self.done = done
    }

    func store(_ value: Int, at index: Int) {
        slots[index] = value
        remaining -= 1
        if remaining == 0 {
            done(slots.compactMap { $0 })
        }
    }
}

/// Where an OpenCombine `Future` hands its promise closure out, to be fulfilled later.
final class PromiseSlot {
    var promise: ((Result<Int, Never>) -> Void)?

    init() {}

    var fulfil: (Result<Int, Never>) -> Void {
        get { promise! }
        set { promise = newValue }
    }

    func fulfil(_ value: Int) {
        promise!(.success(value))
        promise = nil
    }
}
