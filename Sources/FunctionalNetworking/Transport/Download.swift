import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the request for `endpoint` through `transport` and writes the body of its 2xx response to
/// `destination`, never holding it in memory; returns the response.
///
/// ```swift
/// let transport = NetworkSession.shared.transport(with: .authenticated(by: auth), .retry(), .validatingStatus())
/// let report = FileManager.default.temporaryDirectory.appendingPathComponent("report.pdf")
/// let response = try await download(Endpoint(baseURL: api, path: "/reports/7.pdf"), to: report, through: transport)
/// ```
///
/// The request goes through the same composers as any other (authentication, retry, logging,
/// metrics, time limits); the cache and de-duplication let it pass, since they keep bodies in
/// memory. The body is written to a temporary file beside `destination` and moved there when
/// it is complete, replacing what was there: a failed, retried or cancelled download leaves no
/// partial file; a file that is replaced keeps its permissions. A response that is not 2xx is
/// not written: it fails with ``HTTPStatusError`` (with its body) unless the stack's
/// `validatingStatus` accepts it. Watch its progress with
/// ``withTransferProgress(_:onProgress:)``: it describes the response written to the file,
/// never a redirect on the way.
///
/// The transport's ``TransportPolicy/maximumResponseSize`` limits bodies kept in memory, not
/// downloads. A download is limited to ``TransportPolicy/defaultMaximumDownloadSize`` (8 GiB)
/// unless you pass another `maximumSize`: no ordinary file reaches it, and a server that sends
/// an endless body fills no disk. Past the limit the download fails with
/// ``TransportError/responseTooLarge(limit:url:)`` and leaves no file.
///
/// A transport that is not the package's (a stub in a test, say) is honoured too: the data it
/// returns for a 2xx response is written to `destination`.
///
/// - Parameters:
///   - endpoint: The endpoint to download.
///   - destination: A file URL; its directory must exist.
///   - transport: A transport from a ``NetworkSession``, composed or not.
///   - maximumSize: The most bytes to write; 8 GiB unless you say, `nil` for no limit.
/// - Returns: The response.
/// - Throws: ``Endpoint/Error`` when the endpoint makes no request,
///   ``TransportError/downloadFailed(path:reason:)`` when the file cannot be written,
///   ``TransportError/responseTooLarge(limit:url:)`` over `maximumSize`, and whatever the
///   transport throws.
@discardableResult
public func download(
    _ endpoint: Endpoint, to destination: URL, through transport: Transport,
    maximumSize: Int? = TransportPolicy.defaultMaximumDownloadSize
) async throws -> URLResponse {
    let request = try endpoint.urlRequest()
    guard destination.isFileURL else {
        throw TransportError.downloadFailed(path: destination.absoluteString, reason: "the destination is not a file URL")
    }
    let target = DownloadTarget(destination: destination, maximumSize: maximumSize)
    let check = StatusCheck()
    let record = CallRecord()
    var context = RequestContext.current
    context.download = target
    context.statusCheck = check
    context.record = record
    let data: Data
    let response: URLResponse
    do {
        (data, response) = try await RequestContext.$current.withValue(context) { try await transport(request) }
        if let written = target.takeFinished() {
            // The session wrote the body to a file beside the destination: moved into place only
            // now that the call has succeeded.
            do {
                try Transfer.moveIntoPlace(written, at: destination)
            } catch {
                try? FileManager.default.removeItem(at: written)
                throw TransportError.downloadFailed(path: destination.path, reason: error.localizedDescription)
            }
            return response
        }
        if !check.isAccepted {
            try HTTPStatusError.check(response, data: data)
        }
    } catch {
        target.abandon()
        throw record.annotate(error)
    }
    // Not written by the package's session: a transport of another kind answered.
    if let maximumSize, data.count > maximumSize {
        let url = request.url.map { Redaction.default.redact($0) } ?? ""
        throw TransportError.responseTooLarge(limit: maximumSize, url: url)
    }
    let temporary = destination.deletingLastPathComponent().appendingPathComponent(Transfer.temporaryName(for: destination))
    do {
        try data.write(to: temporary)
        try Transfer.moveIntoPlace(temporary, at: destination)
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw TransportError.downloadFailed(path: destination.path, reason: error.localizedDescription)
    }
    return response
}
