import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Endpoint {
    /// A value with the response it came in: the status, the headers and the final URL.
    ///
    /// Ask for it when the headers matter (pagination `Link`, `ETag`, rate limits); it decodes
    /// and chains like a body does:
    ///
    /// ```swift
    /// let send = responseNetworking(from: transport)
    /// let page: Endpoint.Response<[Product]> = try await send(.products(page: 2)).decoded().value
    /// let next = page.headers["Link"]      // the value's headers
    /// let products = page.value            // the decoded value
    /// ```
    ///
    /// It is nested in ``Endpoint``, as the answer an endpoint gives, so that it never takes
    /// the name of an app's own `Response` type.
    public struct Response<Value: Sendable>: Sendable {
        /// The body, or what it was decoded into.
        public let value: Value
        /// The HTTP status code, such as 200.
        public let status: Int
        /// The response's header fields.
        public let headers: HTTPHeaders
        /// The URL of the response, after any redirects; `nil` when the transport gave none.
        public let url: URL?

        /// Creates a response from its parts (a test's stub, say).
        ///
        /// ```swift
        /// let stub = Endpoint.Response(value: Data("[]".utf8), status: 200, headers: ["ETag": "\"v1\""])
        /// ```
        public init(value: Value, status: Int, headers: HTTPHeaders = [:], url: URL? = nil) {
            self.value = value
            self.status = status
            self.headers = headers
            self.url = url
        }

        /// The same response with its value transformed, such as decoded.
        ///
        /// ```swift
        /// let text = response.map { String(decoding: $0, as: UTF8.self) }
        /// ```
        ///
        /// - Parameter transform: Turns the value into another one; an error it throws is rethrown.
        /// - Returns: The response with the new value and the same status, headers and URL.
        public func map<NewValue: Sendable>(_ transform: (Value) throws -> NewValue) rethrows -> Response<NewValue> {
            Response<NewValue>(value: try transform(value), status: status, headers: headers, url: url)
        }
    }
}

extension Endpoint.Response: Equatable where Value: Equatable {}

extension Endpoint.Response where Value == Data {
    /// Creates the response of `body` from a transport's answer.
    init(body: Data, response: URLResponse) {
        let http = response as? HTTPURLResponse
        var headers: HTTPHeaders = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        self.init(value: body, status: http?.statusCode ?? 200, headers: headers, url: response.url)
    }
}

/// A networking function that keeps the response: an endpoint in, the future of its body
/// with the status, headers and final URL out.
public typealias ResponseNetworking = (Endpoint) -> Future<Endpoint.Response<Data>>

/// Turns a ``Transport`` into a ``ResponseNetworking`` function: ``networking(from:)`` that
/// keeps the status, the headers and the final URL with the body.
///
/// The status is checked as ``networking(from:)`` checks it, so a failure is the same
/// ``HTTPStatusError``. It composes like `Networking` does, with `decoded()`, `combine` and
/// `chain`:
///
/// ```swift
/// let send = responseNetworking(from: transport)
/// let load: (Int) -> Future<Endpoint.Response<Product>> = chain(chain(Endpoint.product, to: send), to: Future.decoded)
/// let product = try await load(7).value
/// print(product.value.name, product.headers["ETag"] ?? "no ETag")
/// ```
///
/// - Parameter transport: The function that sends requests.
/// - Returns: A function from endpoints to the futures of their responses.
public func responseNetworking(from transport: @escaping Transport) -> @Sendable (Endpoint) -> Future<Endpoint.Response<Data>> {
    { endpoint in
        Future {
            let (data, response) = try await sendChecked(endpoint, through: transport)
            return Endpoint.Response(body: data, response: response)
        }
    }
}

extension Future {
    /// Decodes the body of a response as JSON into the type the context asks for, keeping
    /// the status, headers and URL.
    ///
    /// ```swift
    /// let product: Future<Endpoint.Response<Product>> = responseNetworking(from: transport)(endpoint).decoded()
    /// ```
    ///
    /// An empty body (a 204, a `HEAD`) decodes into ``NoContent`` or into an optional, as `nil`.
    ///
    /// - Returns: A future of the decoded response, or of a ``DecodingFailure``.
    public func decoded<T: Decodable & Sendable>() -> Future<Endpoint.Response<T>> where Value == Endpoint.Response<Data> {
        decoded(as: T.self, using: JSONDecoder())
    }

    /// Decodes the body of a response as JSON into `type` with `decoder`, keeping the status,
    /// headers and URL.
    ///
    /// - Returns: A future of the decoded response, or of a ``DecodingFailure``.
    public func decoded<T: Decodable & Sendable>(
        as type: T.Type,
        using decoder: JSONDecoder
    ) -> Future<Endpoint.Response<T>> where Value == Endpoint.Response<Data> {
        map { response in
            try response.map { data in
                try DecodingFailure.decode(
                    type, from: data, using: decoder, contentType: response.headers["Content-Type"], url: response.url)
            }
        }
    }
}
