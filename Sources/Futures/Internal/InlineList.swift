/// A list that stores its first element inline and only allocates for the second.
///
/// Most futures have exactly one observer and at most one cancellation handler, so the common
/// case never touches the heap for its bookkeeping.
@usableFromInline
struct InlineList<Element> {
    @usableFromInline var first: Element?
    @usableFromInline var rest: [Element]
    /// Whether ``first`` is set: a plain flag, because testing the optional element copies it
    /// (a retain and a release of what it holds).
    @usableFromInline var hasElements: Bool

    // Set here rather than by default values, which would be compiled into functions of their
    // own that the inlined initialiser calls.
    @inlinable init() {
        first = nil
        rest = []
        hasElements = false
    }

    @inlinable var isEmpty: Bool { !hasElements }

    @inlinable mutating func append(_ element: Element) {
        if !hasElements {
            // `first` is `nil` whenever the list is empty: initialised, not assigned, so that
            // no code runs to destroy the `nil`.
            let element = Optional(element)
            withUnsafeMutablePointer(to: &first) { $0.initialize(to: element) }
            hasElements = true
        } else {
            if rest.isEmpty {
                // Room for a few at once: growing one by one would reallocate at 1, 2 and 4.
                rest.reserveCapacity(4)
            }
            rest.append(element)
        }
    }

    /// Appends `element`, which the caller gives up: no copy of it is made.
    @inlinable mutating func append(taking element: consuming Element) {
        if !hasElements {
            // `first` is `nil` whenever the list is empty: initialised, not assigned, so that
            // no code runs to destroy the `nil`.
            let element = Optional(element)
            withUnsafeMutablePointer(to: &first) { $0.initialize(to: element) }
            hasElements = true
        } else {
            if rest.isEmpty {
                // Room for a few at once: growing one by one would reallocate at 1, 2 and 4.
                rest.reserveCapacity(4)
            }
            rest.append(element)
        }
    }

    /// Takes every element out, leaving the list empty; the rest is `nil` when there is none,
    /// so that an entry with one element touches no array.
    @inlinable mutating func takeAll() -> (first: Element?, rest: [Element]?) {
        hasElements = false
        let taken = first.take()
        guard !rest.isEmpty else {
            return (taken, nil)
        }
        let others = rest
        rest = []
        return (taken, others)
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
