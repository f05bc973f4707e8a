import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that gives the future of its answer instead of awaiting it: the shape of the
/// package's own session (its delegate completes the future from the request's last callback)
/// and of the composers that need no task of their own.
///
/// The call's context travels as a parameter: code on this path runs on whatever thread starts
/// or completes the request, outside any task. A stack of such composers over the package's
/// session sends a request with no task at all; an awaiting caller pays one resumption, as with
/// URLSession's own `data(for:)`.
typealias DirectTransport = @Sendable (URLRequest, RequestContext) -> Future<(Data, URLResponse)>

/// The meeting points of the two shapes of transport.
enum TransportBridge {
    /// `direct` as a ``Transport``: called with the calling task's context, it awaits the
    /// future; cancelling the task cancels the future.
    static func awaiting(_ direct: @escaping DirectTransport) -> Transport {
        { request in try await direct(request, RequestContext.current).value }
    }

    /// `transport` as a ``DirectTransport``: each call runs it in a task of its own (see
    /// ``Future/startedImmediately(_:)``), with the context it is given as the task's.
    static func started(_ transport: @escaping Transport) -> DirectTransport {
        { request, context in
            Future.startedImmediately {
                try await RequestContext.$current.withValue(context) { try await transport(request) }
            }
        }
    }
}

extension Future {
    /// Starts `operation` in a task of its own and returns the future of its result; cancelling
    /// the future cancels the task.
    ///
    /// Where the platform has `Task.immediate` (Linux; macOS 26, iOS 26 and their peers), the
    /// task runs on the calling thread until it first suspends, so the request is made there, as
    /// URLSession's own methods make it, without a thread switch. Not on a thread that runs a
    /// session's callbacks (``SessionCallbackThread``): a transport of the caller's own may make
    /// a URLSession task, which on swift-corelibs-foundation waits for the queue that thread runs.
    static func startedImmediately(_ operation: @escaping @Sendable () async throws -> Value) -> Future<Value> {
        let promise = Promise<Value>()
        let work: @Sendable () async -> Void = {
            do {
                promise.resolve(with: try await operation())
            } catch {
                promise.reject(with: error)
            }
        }
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *), !SessionCallbackThread.isRunningCallback {
            task = Task.immediate(operation: work)
        } else {
            task = Task(operation: work)
        }
        promise.onCancel { task.cancel() }
        return promise
    }
}
