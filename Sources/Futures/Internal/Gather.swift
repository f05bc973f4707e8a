/// Collects the values of several futures, in input order, for `all` and `zip`.
///
/// Owns the lock that guards its slots, hence `@unchecked Sendable`.
@usableFromInline
final class Gather<Element: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline var slots: [Element?]
    @usableFromInline var remaining: Int

    @inlinable init(count: Int) {
        slots = Array(repeating: nil, count: count)
        remaining = count
    }

    /// Stores `value` at `index`.
    ///
    /// - Returns: every value in input order, once the last slot is filled; otherwise `nil`.
    @inlinable func store(_ value: Element, at index: Int) -> [Element]? {
        lock.withLock {
            guard slots[index] == nil else { return nil }
            slots[index] = value
            remaining -= 1
            guard remaining == 0 else { return nil }
            return slots.compactMap { $0 }
        }
    }
}
