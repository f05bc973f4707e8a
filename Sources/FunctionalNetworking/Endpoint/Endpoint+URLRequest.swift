import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Endpoint {
    /// The `URLRequest` for this endpoint: its ``url``, method, headers, body and timeout.
    ///
    /// Everything is checked before a request exists, so nothing malformed reaches the wire:
    /// the URL must be valid, the method an HTTP token, each header name an HTTP token and
    /// each value free of control characters (CR, LF, NUL…), and the timeout positive and
    /// finite. A header name that repeats is sent as one field whose values are joined by
    /// `", "`, in order.
    ///
    /// ```swift
    /// let request = try Endpoint.product(withID: id)
    ///     .setting(header: "Accept", to: "application/json")
    ///     .urlRequest()
    /// ```
    ///
    /// - Returns: The request, ready for `URLSession`.
    /// - Throws: ``Error/invalidURL(_:)``, naming the wrong part, when ``url`` is `nil`; ``Error/invalidMethod(_:)``;
    ///   ``Error/invalidHeader(name:)`` naming the first bad field; ``Error/invalidTimeout``.
    public func urlRequest() throws(Endpoint.Error) -> URLRequest {
        guard let url else { throw .invalidURL(urlProblem) }
        // The transport checks every request by the same rules (HTTPFieldSyntax+Request.swift).
        guard HTTPFieldSyntax.problem(method: method.rawValue) == nil else { throw .invalidMethod(method) }
        for field in headers where HTTPFieldSyntax.problem(headerName: field.name, value: field.value) != nil {
            throw .invalidHeader(name: field.name)
        }
        var request = URLRequest(url: url)
        if let timeout {
            guard timeout.isFinite, timeout > 0 else { throw .invalidTimeout }
            request.timeoutInterval = timeout
        }
        request.httpMethod = method.rawValue
        for (name, values) in headers.grouped() {
            request.setValue(values.joined(separator: ", "), forHTTPHeaderField: name)
        }
        if let streamedBody {
            request.httpBodyStream = streamedBody.makeStream().stream
        } else {
            request.httpBody = body
        }
        return request
    }
}
