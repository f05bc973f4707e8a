/// A future whose result is set and whose callbacks still have to run.
///
/// Completing a derived future inside a callback does not run the derived future's callbacks
/// there and then (which would nest one stack frame per step of a chain); it hands the future
/// back to the loop in ``CallbackRunner/drain(_:)``, which runs it next. That keeps a
/// million-step `map` or `flatMap` chain at constant stack depth.
@usableFromInline
protocol PendingCallbacks: AnyObject, Sendable {
    /// Runs every registered callback, pushing the futures they complete onto `stack`.
    func runCallbacks(into stack: inout CallbackRunner)
}

/// The iterative loop that runs callbacks of completed futures.
///
/// Each run of the loop is a level of ``CallbackNesting``: one started inside a callback (an
/// observer completing another promise) nests, up to ``CallbackNesting/limit`` levels deep;
/// past that, its future is handed to the innermost level instead.
@usableFromInline
struct CallbackRunner: ~Copyable {
    private var top: (any PendingCallbacks)?
    /// The futures pushed before ``top``; `nil` until there are some, so that a runner that
    /// never holds two has no array to free.
    private var rest: [any PendingCallbacks]?

    @usableFromInline init() {}

    @usableFromInline
    mutating func push(_ pending: any PendingCallbacks) {
        if let top {
            if rest == nil {
                rest = [top]
            } else {
                rest?.append(top)
            }
        }
        top = pending
    }

    @usableFromInline
    mutating func pop() -> (any PendingCallbacks)? {
        let next = top
        top = rest?.popLast()
        return next
    }

    /// Runs the callbacks of `future`, which has just completed, and of every future they
    /// complete, without recursion: ``drain(_:)`` for a future of a known type, which calls
    /// its callbacks directly.
    @usableFromInline
    static func drain<Value>(completed future: Future<Value>) {
        let nesting = CallbackNesting.current
        let depth = nesting.depth
        guard depth < CallbackNesting.limit - 1 else {
            nesting.runAtLimit(future)
            return
        }
        nesting.depth = depth + 1
        var runner = CallbackRunner()
        future.runCallbacks(into: &runner)
        while let next = runner.pop() {
            next.runCallbacks(into: &runner)
        }
        nesting.depth = depth
    }

    /// Runs the callbacks of `first` and of every future they complete, without recursion.
    @usableFromInline
    static func drain(_ first: any PendingCallbacks) {
        let nesting = CallbackNesting.current
        let depth = nesting.depth
        guard depth < CallbackNesting.limit - 1 else {
            nesting.runAtLimit(first)
            return
        }
        nesting.depth = depth + 1
        var runner = CallbackRunner()
        runner.push(first)
        while let next = runner.pop() {
            next.runCallbacks(into: &runner)
        }
        nesting.depth = depth
    }
}
