import Foundation
import FunctionalNetworking
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers every request with `data` and an HTTP response of `status`,
/// without any network.
///
/// ```swift
/// let transport = stubTransport(data: Data(#"{"id":7,"name":"iPad Pro"}"#.utf8))
/// let product: Product = try await networking(from: transport)(.product(withID: 7)).decoded().value
/// ```
///
/// - Parameters:
///   - data: The body of every response.
///   - status: The status code of every response.
///   - headers: The headers of every response.
/// - Returns: A `Transport` that never touches the network.
public func stubTransport(
    data: Data = Data(),
    status: Int = 200,
    headers: [String: String] = [:]
) -> Transport {
    stubTransport { request in
        (data, stubResponse(for: request, status: status, headers: headers))
    }
}

/// A transport that answers each request with whatever `respond` returns or throws.
///
/// ```swift
/// let transport = stubTransport { request in
///     request.url?.path == "/products/7" ? (productJSON, stubResponse(for: request)) : (Data(), stubResponse(for: request, status: 404))
/// }
/// ```
public func stubTransport(
    _ respond: @escaping @Sendable (URLRequest) throws -> (Data, URLResponse)
) -> Transport {
    { request in try respond(request) }
}

/// An `HTTPURLResponse` for `request` with `status` and `headers` (a plain `URLResponse` in
/// the unlikely case that the platform refuses to make one).
public func stubResponse(
    for request: URLRequest,
    status: Int = 200,
    headers: [String: String] = [:]
) -> URLResponse {
    let url = request.url ?? URL(fileURLWithPath: "/")
    return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        ?? URLResponse(url: url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
}

/// A `Networking` function that answers every endpoint with `data` at once.
///
/// ```swift
/// let loader = ProductLoader(networking: stubNetworking(data: productJSON))
/// ```
public func stubNetworking(data: Data) -> Networking {
    { _ in Future(value: data) }
}

/// A `Networking` function that answers each endpoint with the result `respond` gives.
public func stubNetworking(_ respond: @escaping @Sendable (Endpoint) -> Result<Data, any Error>) -> Networking {
    { endpoint in Future(result: respond(endpoint)) }
}
