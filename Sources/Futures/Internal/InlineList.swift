/// A list that stores its first element inline and only allocates for the second.
///
/// Most futures have exactly one observer and at most one cancellation handler, so the common
/// case never touches the heap for its bookkeeping.
@usableFromInline
struct InlineList<Element> {
    @usableFromInline var first: Element?
    @usableFromInline var rest: [Element] = []

    @inlinable init() {}

    @inlinable var isEmpty: Bool { first == nil }

    @inlinable mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Returns the elements and leaves the list empty.
    @inlinable mutating func removeAll() -> InlineList {
        let taken = self
        self = InlineList()
        return taken
    }

    /// Calls `body` on each element in insertion order.
    @inlinable func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        for element in rest {
            try body(element)
        }
    }
}
