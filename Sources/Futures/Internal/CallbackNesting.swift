#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// How deep runs of callbacks nest on the calling thread, and the work deferred past the limit,
/// so that callbacks which complete or observe other futures never grow the stack without
/// bound.
///
/// Each run of callbacks on a thread is a *level*: a run of ``CallbackRunner`` (completing a
/// future that has callbacks), an observer run at once because its future has completed, or a
/// combinator's callback run at once. A level started inside another nests, as a plain call
/// would, until ``limit`` levels are running; past that, it does not start: its future is
/// deferred instead, and the innermost level runs it as soon as the callback in progress
/// returns. So observers that each complete the next promise, or observe a completed future
/// from inside an observer, run in a loop whatever their number, and the stack stops growing
/// after ``limit`` levels. (Scala's `BatchingExecutor` does the same, with the same limit.)
/// Everything still runs on the thread that started it, before the outermost level returns.
///
/// Each thread has its own state, made the first time the thread runs a callback and freed
/// when the thread exits, reached through a POSIX thread-specific key (see ``current``): the
/// only state of this module outside the futures themselves, and it holds nothing between two
/// runs of callbacks but an empty array. Only its own thread touches it, so it needs no lock.
/// This value is its address: passing it costs no reference counting.
@usableFromInline
struct CallbackNesting {
    /// A thread's nesting state, in memory of its own.
    @usableFromInline
    struct State {
        /// How many levels are running on the thread.
        @usableFromInline var depth = 0
        /// Futures whose callbacks wait for the innermost level, first deferred first. Kept
        /// with its capacity between uses.
        @usableFromInline var deferred: [any PendingCallbacks] = []
        /// The actor that the code running callbacks on the thread is proven to be isolated to,
        /// if any (see ``CallbackNesting/isolation``).
        @usableFromInline var isolation: ObjectIdentifier?

        @usableFromInline init() {}
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    @inlinable init(state: UnsafeMutablePointer<State>) {
        self.state = state
    }

    /// How many levels may run at once on one thread.
    @inlinable static var limit: Int { 16 }

    /// How many levels are running on the thread.
    @inlinable var depth: Int {
        get { state.pointee.depth }
        nonmutating set { state.pointee.depth = newValue }
    }

    /// Whether a new level would go past the limit, so that its work must be deferred.
    @inlinable var isAtLimit: Bool { state.pointee.depth >= Self.limit }

    /// Hands `pending`, whose callbacks are set to run, to the innermost level (see
    /// ``isAtLimit``).
    @usableFromInline
    func deferCallbacks(of pending: any PendingCallbacks) {
        state.pointee.deferred.append(pending)
    }

    /// Runs `body` (an observer or a callback run at once) as one more level; when that level is
    /// the innermost one allowed, runs what was deferred during it before returning.
    @inlinable
    func runLevel<Result>(_ body: () -> Result) -> Result {
        let depth = state.pointee.depth
        state.pointee.depth = depth + 1
        let result = body()
        if depth + 1 == Self.limit, !state.pointee.deferred.isEmpty {
            var runner = CallbackRunner()
            runDeferred(with: &runner)
        }
        state.pointee.depth = depth
        return result
    }

    /// Runs the callbacks of `first` as a ``CallbackRunner`` would, for a level that would start
    /// at the limit or one below it: past the limit, defers them; at the limit, runs them and
    /// what is deferred meanwhile.
    @usableFromInline @inline(never)
    func runAtLimit(_ first: any PendingCallbacks) {
        let depth = state.pointee.depth
        guard depth < Self.limit else {
            deferCallbacks(of: first)
            return
        }
        state.pointee.depth = depth + 1
        var runner = CallbackRunner()
        runner.push(first)
        runDeferred(with: &runner)
        state.pointee.depth = depth
    }

    /// Runs `runner` to the end, taking into it, before each future, what was deferred since
    /// the last (by its callbacks, or by freeing the future before).
    @usableFromInline
    func runDeferred(with runner: inout CallbackRunner) {
        while true {
            takeDeferred(into: &runner)
            guard let next = runner.pop() else {
                return
            }
            next.runCallbacks(into: &runner)
        }
    }

    /// Moves the deferred futures to `runner`, so that the first deferred runs first.
    @usableFromInline
    func takeDeferred(into runner: inout CallbackRunner) {
        switch state.pointee.deferred.count {
        case 0:
            return
        case 1:
            // The usual case: a callback completed one future.
            runner.push(state.pointee.deferred.removeLast())
            return
        default:
            break
        }
        var deferred: [any PendingCallbacks] = []
        swap(&deferred, &state.pointee.deferred)
        for pending in deferred.reversed() {
            runner.push(pending)
        }
        deferred.removeAll(keepingCapacity: true)
        swap(&deferred, &state.pointee.deferred)
    }

    // MARK: - The calling thread's state

    /// The calling thread's nesting, made on first use.
    @inlinable
    static var current: CallbackNesting {
        guard let pointer = pthread_getspecific(key) else {
            return makeCurrent()
        }
        return CallbackNesting(state: pointer.assumingMemoryBound(to: State.self))
    }

    /// Makes the calling thread's state and stores it under ``key``, whose destructor frees it
    /// when the thread exits.
    @usableFromInline @inline(never)
    static func makeCurrent() -> CallbackNesting {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        let status = pthread_setspecific(key, state)
        precondition(status == 0, "Futures could not keep the thread's callback state (pthread_setspecific: \(status)).")
        return CallbackNesting(state: state)
    }

    /// Frees a thread's state: the destructor of ``key``, run when the thread exits.
    @usableFromInline
    static func free(_ pointer: UnsafeMutableRawPointer) {
        let state = pointer.assumingMemoryBound(to: State.self)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Makes a thread-specific key whose destructor frees a thread's state.
    @usableFromInline
    static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { pointer in
            CallbackNesting.free(pointer)
        }
        #else
        let status = pthread_key_create(&key) { pointer in
            if let pointer {
                CallbackNesting.free(pointer)
            }
        }
        #endif
        precondition(status == 0, "Futures could not make a thread-specific key (pthread_key_create: \(status)).")
        return key
    }

    /// The thread-specific key under which each thread keeps its state.
    @inlinable static var key: pthread_key_t { callbackNestingKey }
}

/// The thread-specific key under which each thread keeps its ``CallbackNesting``; its
/// destructor frees a thread's state when the thread exits. Made once, and never changed.
@usableFromInline let callbackNestingKey = CallbackNesting.makeKey()
