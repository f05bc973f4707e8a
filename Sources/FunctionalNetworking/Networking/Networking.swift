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
/// Each call makes the endpoint's `URLRequest`, runs it through `transport` in a `Task`, and
/// gives the body. The status is checked once: by the stack's
/// ``Composer/validatingStatus(_:)`` when it has one (so a stack that accepts 3xx gives a 304's
/// body), else here, where any status outside 2xx rejects with ``HTTPStatusError``.
/// Cancelling a returned future cancels its task, and `URLError.cancelled` is reported as
/// `CancellationError`. A network failure rejects with
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
        Future { try await sendChecked(endpoint, through: transport).0 }
    }
}

/// Sends `endpoint` through `transport` and checks the status once, as ``networking(from:)``
/// documents; `URLError.cancelled` becomes `CancellationError`. Given `target`, the session
/// streams a 2xx body into it (``stream(_:through:limits:)``) and the data returned is empty.
func sendChecked(_ endpoint: Endpoint, through transport: Transport, streamingInto target: StreamTarget? = nil) async throws -> (
    Data, URLResponse
) {
    let request = try endpoint.urlRequest()
    let record = CallRecord()
    do {
        let check = StatusCheck()
        var context = RequestContext.current
        context.maximumResponseSize = endpoint.maximumResponseSize
        context.download = nil
        context.stream = target
        context.statusCheck = check
        context.record = record
        let (data, response) = try await RequestContext.$current.withValue(context) {
            try await transport(request)
        }
        if !check.isAccepted {
            try HTTPStatusError.check(response, data: data)
        }
        return (data, response)
    } catch let error as URLError where error.code == .cancelled {
        throw CancellationError()
    } catch let error as TransportError where error.urlError?.code == .cancelled {
        throw CancellationError()
    } catch {
        throw record.annotate(error)
    }
}
