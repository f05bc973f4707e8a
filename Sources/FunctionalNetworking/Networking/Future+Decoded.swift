import Foundation
import Futures

extension Future where Value == Data {
    /// Decodes the body as JSON into the type the context asks for.
    ///
    /// Swift infers the type, so a loader reads as one line:
    ///
    /// ```swift
    /// func loadProduct(withID id: Product.ID) -> Future<Product> {
    ///     networking(.product(withID: id)).decoded()
    /// }
    /// ```
    ///
    /// As a curried method it chains without an instance:
    /// `chain(networking, to: Future.decoded)`.
    ///
    /// - Returns: A future of the decoded value, or of a ``DecodingFailure`` naming the type
    ///   and the coding path.
    public func decoded<T: Decodable & Sendable>() -> Future<T> {
        decoded(as: T.self, using: JSONDecoder())
    }

    /// Decodes the body as JSON into `type` with `decoder`.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// let product = networking(endpoint).decoded(as: Product.self, using: decoder)
    /// ```
    ///
    /// - Returns: A future of the decoded value, or of a ``DecodingFailure``.
    public func decoded<T: Decodable & Sendable>(as type: T.Type, using decoder: JSONDecoder) -> Future<T> {
        map { data in try DecodingFailure.decode(type, from: data, using: decoder) }
    }

    /// Decodes the body into `type`, and the body of a non-2xx response into the server's
    /// error model, like SwiftyNetworking's `responseError`.
    ///
    /// ```swift
    /// struct Problem: Decodable, Sendable { let message: String }
    /// do {
    ///     let product = try await networking(endpoint).decoded(as: Product.self, errorModel: Problem.self).value
    /// } catch let error as ServerError<Problem> {
    ///     show(error.model.message)
    /// }
    /// ```
    ///
    /// A failed response whose body is not a `Model` keeps its ``HTTPStatusError``.
    ///
    /// - Returns: A future of the value, or of a ``ServerError`` carrying the decoded model.
    public func decoded<T: Decodable & Sendable, Model: Decodable & Sendable>(
        as type: T.Type = T.self,
        errorModel: Model.Type,
        using decoder: JSONDecoder = JSONDecoder()
    ) -> Future<T> {
        mapError { error in
            guard let status = error as? HTTPStatusError,
                let model = try? status.decodedBody(as: Model.self, using: decoder)
            else { return error }
            return ServerError(model: model, response: status)
        }
        .decoded(as: type, using: decoder)
    }
}

/// A non-2xx response whose body decoded into the server's error model.
public struct ServerError<Model: Sendable>: Error, Sendable, CustomStringConvertible {
    /// The server's error document, decoded.
    public let model: Model
    /// The response it came in.
    public let response: HTTPStatusError

    /// Creates the error from a decoded model and its response.
    init(model: Model, response: HTTPStatusError) {
        self.model = model
        self.response = response
    }

    /// The HTTP status code.
    public var status: Int { response.status }

    /// The status and the decoded model, in words.
    public var description: String {
        "The server answered \(response.status) with \(model)."
    }
}
