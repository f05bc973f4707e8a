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
@usableFromInline
struct CallbackRunner: ~Copyable {
    private var top: (any PendingCallbacks)?
    private var rest: [any PendingCallbacks] = []

    private init() {}

    @usableFromInline
    mutating func push(_ pending: any PendingCallbacks) {
        if let top {
            rest.append(top)
        }
        top = pending
    }

    private mutating func pop() -> (any PendingCallbacks)? {
        let next = top
        top = rest.popLast()
        return next
    }

    /// Runs the callbacks of `future`, which has just completed, and of every future they
    /// complete, without recursion: ``drain(_:)`` for a future of a known type, which calls
    /// its callbacks directly.
    @usableFromInline
    static func drain<Value>(completed future: Future<Value>) {
        var runner = CallbackRunner()
        future.runCallbacks(into: &runner)
        while let next = runner.pop() {
            next.runCallbacks(into: &runner)
        }
    }

    /// Runs the callbacks of `first` and of every future they complete, without recursion.
    @usableFromInline
    static func drain(_ first: any PendingCallbacks) {
        var runner = CallbackRunner()
        runner.push(first)
        while let next = runner.pop() {
            next.runCallbacks(into: &runner)
        }
    }
}
