/// The result of a future, kept in raw bytes: the one place in the module that puts a typed
/// value into untyped memory and takes it out again.
///
/// A slot is empty, or holds one result, and ``state`` says which; that is the whole invariant,
/// and every method keeps it:
/// - `.value`: a `Value`, in the bytes when it fits them (``fitsInline(_:)``), otherwise a
///   ``ValueBox`` holding it;
/// - `.error`: an `any Error`;
/// - `.empty`: nothing; the bytes are not initialised, and nothing needs destroying.
///
/// The caller passes the same `Value` type to every call, and destroys (or takes) what the slot
/// holds before dropping it: a slot has no `deinit` of its own, since it does not know its type.
///
/// Why raw bytes rather than a `Result<Value, any Error>?`: a future's `deinit` is never
/// specialised, and destroying a stored property whose type is generic over `Value` looks that
/// type's metadata up in the runtime's cache for every future, a large share of a `map` step.
/// This type's layout does not depend on `Value`, so the future's own layout does not either;
/// the value in it is destroyed through `Value`'s own metadata, which the future has.
@usableFromInline
struct ResultSlot {
    /// What the slot holds.
    @usableFromInline
    enum State: UInt8 {
        case empty, value, error
    }

    /// Room for most model types, several strings, or a `Data` and a response.
    @usableFromInline var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// Written only by this type's methods.
    @usableFromInline var state: State

    /// How many bytes a value kept inline may take.
    @inlinable static var capacity: Int { 64 }

    /// An empty slot.
    @inlinable init() {
        bytes = (0, 0, 0, 0, 0, 0, 0, 0)
        state = .empty
    }

    /// Whether a `Value` is kept in the bytes themselves; otherwise it is boxed. A constant once
    /// specialised.
    ///
    /// Only a bitwise-takable value is kept there: ``load(as:)`` copies it out of a copy of the
    /// bytes.
    @inlinable
    static func fitsInline<Value>(_: Value.Type) -> Bool {
        MemoryLayout<Value>.size <= capacity
            && MemoryLayout<Value>.alignment <= MemoryLayout<UInt64>.alignment
            && _isBitwiseTakable(Value.self)
    }

    /// Whether the slot holds a result.
    @inlinable var isEmpty: Bool { state == .empty }

    /// Puts `result` in the empty slot.
    @inlinable
    mutating func store<Value: Sendable>(_ result: Result<Value, any Error>) {
        assert(state == .empty, "A result slot was filled twice.")
        switch result {
        case .success(let value):
            withUnsafeMutableBytes(of: &bytes) { raw in
                if Self.fitsInline(Value.self) {
                    raw.baseAddress.unsafelyUnwrapped.initializeMemory(as: Value.self, to: value)
                } else {
                    raw.baseAddress.unsafelyUnwrapped.initializeMemory(as: AnyObject.self, to: ValueBox(value))
                }
            }
            state = .value
        case .failure(let error):
            withUnsafeMutableBytes(of: &bytes) { raw in
                _ = raw.baseAddress.unsafelyUnwrapped.initializeMemory(as: (any Error).self, to: error)
            }
            state = .error
        }
    }

    /// A copy of the result, or `nil` when the slot is empty; the slot keeps it.
    ///
    /// A read, not a mutating access: callbacks read a completed future's slot from several
    /// threads at once without its lock (nothing writes it any more), and the thread sanitizer
    /// would see an `inout` access as a write. Reading the value out of a copy of the bytes is
    /// reading it out of the slot, since a value is kept in the bytes only when it is
    /// bitwise-takable (see ``fitsInline(_:)``); boxes and errors are references.
    @inlinable
    func load<Value: Sendable>(as _: Value.Type) -> Result<Value, any Error>? {
        switch state {
        case .empty:
            return nil
        case .error:
            return .failure(withUnsafeBytes(of: bytes) { $0.load(as: (any Error).self) })
        case .value:
            if Self.fitsInline(Value.self) {
                return .success(withUnsafeBytes(of: bytes) { $0.load(as: Value.self) })
            }
            let box = withUnsafeBytes(of: bytes) { $0.load(as: AnyObject.self) }
            return .success(unsafeDowncast(box, to: ValueBox<Value>.self).value)
        }
    }

    /// The result, moved out; the slot is left empty.
    @inlinable
    mutating func take<Value: Sendable>(as type: Value.Type) -> Result<Value, any Error>? {
        let result = load(as: type)
        destroy(as: type)
        return result
    }

    /// Destroys what the slot holds, if anything, and leaves it empty.
    @inlinable
    mutating func destroy<Value: Sendable>(as _: Value.Type) {
        switch state {
        case .empty:
            return
        case .error:
            withUnsafeMutableBytes(of: &bytes) { raw in
                _ = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: (any Error).self).deinitialize(count: 1)
            }
        case .value:
            if !Self.fitsInline(Value.self) {
                withUnsafeMutableBytes(of: &bytes) { raw in
                    _ = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: AnyObject.self).deinitialize(count: 1)
                }
            } else if !_isPOD(Value.self) {
                withUnsafeMutableBytes(of: &bytes) { raw in
                    _ = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
                }
            }
        }
        state = .empty
    }
}

/// A value that does not fit a ``ResultSlot``'s bytes.
@usableFromInline
final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @inlinable init(_ value: Value) {
        self.value = value
    }
}
