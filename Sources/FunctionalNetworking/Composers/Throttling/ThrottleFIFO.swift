/// A first-in, first-out queue of waiter ids: an array read from a moving head, compacted once
/// the consumed part outgrows the rest, so both ends are amortised O(1).
struct ThrottleFIFO {
    private var storage: [UInt64] = []
    private var head = 0

    /// Whether no id is left.
    var isEmpty: Bool { head == storage.count }

    /// The oldest id, or `nil` when empty.
    var first: UInt64? { isEmpty ? nil : storage[head] }

    /// Appends `id` at the back.
    mutating func append(_ id: UInt64) {
        storage.append(id)
    }

    /// Removes the oldest id; does nothing when empty.
    mutating func removeFirst() {
        guard !isEmpty else { return }
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
