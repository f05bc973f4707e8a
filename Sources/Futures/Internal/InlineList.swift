/// A list that stores its first element inline and only allocates for the second.
///
/// Most futures have exactly one observer and at most one cancellation handler, so the common
/// case never touches the heap for its bookkeeping.
struct InlineList<Element> {
    private var first: Element?
    private var rest: [Element] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Returns the elements and leaves the list empty.
    mutating func removeAll() -> InlineList {
        let taken = self
        self = InlineList()
        return taken
    }

    /// Calls `body` on each element in insertion order.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        for element in rest {
            try body(element)
        }
    }
}
