import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response whose status and headers have arrived and whose body arrives as you read it:
/// what ``stream(_:through:limits:)`` returns.
///
/// ```swift
/// let response = try await stream(.logs(of: job), through: transport)
/// print(response.statusCode, response.headers["Content-Type"] ?? "")
/// for try await line in response.body.lines {
///     print(line)
/// }
/// ```
public struct StreamedResponse: Sendable {
    /// The response, as URLSession gave it.
    public let response: URLResponse
    /// The body, read once, as it arrives.
    public let body: ResponseBody

    /// Makes a streamed response from its parts: in a test, a ready answer.
    ///
    /// ```swift
    /// let response = StreamedResponse(
    ///     response: HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/event-stream"])!,
    ///     body: ResponseBody(Data("data: hello\n\n".utf8))
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - response: The response's head.
    ///   - body: Its body.
    public init(response: URLResponse, body: ResponseBody) {
        self.response = response
        self.body = body
    }

    /// The status code; 200 for a response that is not HTTP (a `file:` or `data:` URL's).
    public var statusCode: Int {
        (response as? HTTPURLResponse)?.statusCode ?? 200
    }

    /// The response's header fields; empty for a response that is not HTTP.
    public var headers: HTTPHeaders {
        guard let http = response as? HTTPURLResponse else { return HTTPHeaders() }
        return HTTPHeaders(response: http)
    }
}
