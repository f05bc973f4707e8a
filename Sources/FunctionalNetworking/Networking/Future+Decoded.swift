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
    /// `chain(networking, to: Future.decoded)`. To name the type or choose the decoder, use
    /// `decoded(as:using:)`.
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
    /// An empty body (a 204, a `HEAD`) decodes into ``NoContent`` or into an optional, as `nil`.
    /// A failed response's body is decoded where its ``HTTPStatusError`` is caught, with
    /// ``HTTPStatusError/decodedBody(as:using:)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode; inferred from the context when left out.
    ///   - decoder: The decoder; a default `JSONDecoder` when left out.
    /// - Returns: A future of the decoded value, or of a ``DecodingFailure`` naming the type
    ///   and the coding path.
    public func decoded<T: Decodable & Sendable>(
        as type: T.Type = T.self,
        using decoder: JSONDecoder = JSONDecoder()
    ) -> Future<T> {
        map { data in try DecodingFailure.decode(type, from: data, using: decoder) }
    }
}
