import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the request for `endpoint` through `transport` and returns as soon as the response's
/// status and headers have arrived; its body arrives as you read it.
///
/// ```swift
/// let transport = session.transport(with: .authenticated(by: auth), .retry(), .logged(to: log))
/// let response = try await stream(.completions(for: prompt), through: transport)
/// for try await line in response.body.lines {
///     print(line)
/// }
/// ```
///
/// The request goes through the same composers as any other. Everything that happens before
/// the first byte of the body reaches you happens as for any call: a credential refresh on a
/// 401, a retry of a failed attempt or of a 503, a time limit. Once the response is yours it is
/// never sent again. Logging and metrics write their record of the call's end when the stream
/// ends, with the bytes it brought, or with the error or the cancellation that ended it. The
/// cache and de-duplication let a streamed call pass, since they keep bodies in memory.
///
/// Only a 2xx body is streamed. Any other response is read whole (within the endpoint's
/// ``Endpoint/maximumResponseSize`` or the session's limit), so that composers and errors see
/// its body: it fails with ``HTTPStatusError`` unless the stack's
/// ``Composer/validatingStatus(_:)`` accepts it.
///
/// `limits` bound the stream: the silence between chunks, the bytes in all, and one line or
/// event (see ``StreamLimits``). A transport that is not the package's (a stub in a test, say)
/// returns the body whole; it is streamed from memory, under the same limits.
///
/// - Parameters:
///   - endpoint: The endpoint to send.
///   - transport: A transport from a ``NetworkSession``, composed or not.
///   - limits: The stream's limits; ``StreamLimits/default`` unless you say.
/// - Returns: The response, with its body still arriving.
/// - Throws: ``Endpoint/Error`` when the endpoint makes no request, ``HTTPStatusError``,
///   `CancellationError`, and whatever the transport throws, as ``networking(from:)`` does.
public func stream(_ endpoint: Endpoint, through transport: @escaping Transport, limits: StreamLimits = .default) async throws
    -> StreamedResponse
{
    let target = StreamTarget(limits: limits)
    let data: Data
    let response: URLResponse
    do {
        (data, response) = try await sendChecked(endpoint, through: transport, streamingInto: target)
    } catch {
        target.cancel()
        throw error
    }
    if let channel = target.channel(forAnswer: response, data: data) {
        return StreamedResponse(response: response, body: ResponseBody(channel: channel))
    }
    // Not streamed by the package's session: a transport of another kind, or a status the stack
    // accepted, answered with the whole body.
    target.cancel()
    let url = (response.url ?? endpoint.url).map { Redaction.default.redact($0) } ?? "(no URL)"
    return StreamedResponse(response: response, body: ResponseBody(channel: StreamChannel(finished: data, limits: limits, url: url)))
}
