import Foundation
import Testing

@testable import FunctionalNetworking

/// The two shapes a stack of composers runs in: awaited (`NetworkSession(sending:)`, each
/// composer's awaited form) and direct (`directNetworkSession(sending:)`, each composer's
/// direct form). Suites that test a composer both ways take it as an argument.
enum StackShape: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case awaited, direct

    var testDescription: String { rawValue }

    /// A session over `transport` whose stacks run in this shape.
    func session(sending transport: @escaping Transport) -> NetworkSession {
        switch self {
        case .awaited: NetworkSession(sending: transport)
        case .direct: directNetworkSession(sending: transport)
        }
    }

    /// A session over the package's URLSession (for a `LoopbackServer`) whose stacks run in
    /// this shape.
    func loopbackSession() -> NetworkSession {
        switch self {
        case .awaited: NetworkSession(sending: makeTestNetworkSession().transport)
        case .direct: makeTestNetworkSession()
        }
    }
}

/// Records whether the code that calls ``record()`` ran outside any task.
final class TaskWitness: @unchecked Sendable {
    private let lock = NSLock()
    private var outside: Bool?

    /// Records whether the caller runs outside any task.
    func record() {
        let outsideTask = withUnsafeCurrentTask { $0 == nil }
        lock.withLock { outside = outsideTask }
    }

    /// `true` when ``record()`` ran outside any task, `nil` when it did not run.
    var ranOutsideTask: Bool? {
        lock.withLock { outside }
    }
}
