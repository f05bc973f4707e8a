/// The value of a response that has no body: a `204 No Content`, a `205`, the answer to a
/// `HEAD`, or any body you want to ignore.
///
/// `decoded()` gives it for an empty body, where JSON decoding would fail, and for any body
/// at all, which it does not read:
///
/// ```swift
/// let deleted: Future<Empty> = networking(Endpoint(method: .delete, baseURL: api, path: "/items/7")).decoded()
/// ```
///
/// An optional decodes an empty body as `nil` the same way (`Future<Product?>`).
public struct Empty: Decodable, Sendable, Hashable {
    /// Creates the empty value.
    public init() {}

    /// Creates the empty value whatever the document holds.
    ///
    /// - Parameter decoder: Not read.
    public init(from decoder: any Decoder) throws {}
}

/// A type that an empty body decodes into without a decoder: ``Empty``, and optionals (as
/// `nil`).
protocol EmptyBodyDecodable {
    /// The value of an empty body.
    static var emptyBody: Self { get }
}

extension Empty: EmptyBodyDecodable {
    static var emptyBody: Empty { Empty() }
}

extension Optional: EmptyBodyDecodable {
    static var emptyBody: Wrapped? { nil }
}
