import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A networking function: an endpoint in, the future of its body out.
///
/// `URLSession.shared.request` has this shape, so it can be passed as a value; tests pass a
/// closure that returns a ready future instead:
///
/// ```swift
/// final class ProductLoader {
///     private let networking: Networking
///     init(networking: @escaping Networking = URLSession.shared.request) {
///         self.networking = networking
///     }
/// }
/// ```
public typealias Networking = @Sendable (Endpoint) -> Future<Data>

/// Turns a ``Transport`` (a composed one, say) into a ``Networking`` function.
///
/// Each call makes the endpoint's `URLRequest`, runs it through `transport` in a `Task` of its
/// own, and gives the body. (Where the platform has `Task.immediate`, the task runs on the
/// calling thread until it first waits.) ``NetworkSession/networking(with:)-(Composer...)``
/// makes the same function for a session's stack, with no task when the stack needs none. The status is checked once: by the stack's
/// ``Composer/validatingStatus(_:)`` when it has one (so a stack that accepts 3xx gives a 304's
/// body), else here, where any status outside 2xx rejects with ``HTTPStatusError``.
/// Cancelling a returned future cancels its task, and `URLError.cancelled` is reported as
/// `CancellationError`; a call made from a task that is already cancelled fails at once with
/// `CancellationError` and sends nothing, as URLSession's `data(for:)` does. A network failure rejects with
/// ``TransportError/networkFailure(_:url:timeout:attempts:)``, which says it in words and keeps
/// the `URLError`; a status or network error of a retried call says how many attempts were made.
///
/// ```swift
/// let transport = NetworkSession.shared.transport(with: .retry(), .validatingStatus())
/// let send = networking(from: transport)
/// let product: Future<Product> = send(.product(withID: 7)).decoded()
/// ```
///
/// - Parameter transport: The function that sends requests.
/// - Returns: A function from endpoints to the futures of their bodies.
public func networking(from transport: @escaping Transport) -> Networking {
    { endpoint in
        guard !Task.isCancelled else {
            return Future(error: CancellationError())  // as URLSession's `data(for:)`: nothing is sent
        }
        return Future.startedImmediately { try await sendChecked(endpoint, through: transport).0 }
    }
}

/// Sends `endpoint` through `transport` and checks the status once, as ``networking(from:)``
/// documents; `URLError.cancelled` becomes `CancellationError`. Given `target`, the session
/// streams a 2xx body into it (``stream(_:through:limits:)``) and the data returned is empty.
func sendChecked(_ endpoint: Endpoint, through transport: Transport, streamingInto target: StreamTarget? = nil) async throws -> (
    Data, URLResponse
) {
    let request = try endpoint.urlRequest()
    let call = CheckedCall(endpoint, streamingInto: target)
    do {
        let (data, response) = try await RequestContext.$current.withValue(call.context) {
            try await transport(request)
        }
        return (try call.checked(data, response), response)
    } catch {
        throw call.failure(error)
    }
}

/// What ``sendChecked(_:through:streamingInto:)`` does, on a ``DirectTransport``: the future of
/// the checked body, with no task.
func checkedCall(_ endpoint: Endpoint, through direct: DirectTransport) -> Future<Data> {
    guard !Task.isCancelled else {
        return Future(error: CancellationError())  // as URLSession's `data(for:)`: nothing is sent
    }
    let request: URLRequest
    do {
        request = try endpoint.urlRequest()
    } catch {
        return Future(error: error)
    }
    let call = CheckedCall(endpoint, streamingInto: nil)
    return direct(request, call.context)
        .map { data, response in try call.checked(data, response) }
        .mapError { error in call.failure(error) }
}

/// One call from an entry point: its context (the caller's, with the endpoint's limits, and the
/// record and status check of this call), its status check, and its errors as callers see them.
private struct CheckedCall: Sendable {
    let context: RequestContext
    private let check = StatusCheck()
    private let record = CallRecord()

    init(_ endpoint: Endpoint, streamingInto target: StreamTarget?) {
        var context = RequestContext.current
        context.maximumResponseSize = endpoint.maximumResponseSize
        context.download = nil
        context.stream = target
        context.statusCheck = check
        context.record = record
        self.context = context
    }

    /// `data`, unless the response's status fails the check: once, by the stack's
    /// ``Composer/validatingStatus(_:)`` when it has one, else here (2xx only).
    func checked(_ data: Data, _ response: URLResponse) throws -> Data {
        if !check.isAccepted {
            try HTTPStatusError.check(response, data: data)
        }
        return data
    }

    /// `error` as the caller sees it: a cancellation as `CancellationError`, anything else with
    /// the attempts made and the credentials a redirect dropped.
    func failure(_ error: any Error) -> any Error {
        switch error {
        case let error as URLError where error.code == .cancelled:
            CancellationError()
        case let error as TransportError where error.urlError?.code == .cancelled:
            CancellationError()
        default:
            record.annotate(error)
        }
    }
}
