/// The value of a response that has no body: a `204 No Content`, a `205`, the answer to a
/// `HEAD`, or any body you want to ignore.
///
/// `decoded()` gives it for an empty body, where JSON decoding would fail, and for any body
/// at all, which it does not read:
///
/// ```swift
/// let deleted: Future<NoContent> = networking(Endpoint(method: .delete, baseURL: api, path: "/items/7")).decoded()
/// ```
///
/// An optional decodes an empty body as `nil` the same way (`Future<Product?>`).
///
/// The name is HTTP's own for a response without a body (`204 No Content`), so that it never
/// takes the name of an app's own `Empty` type.
public struct NoContent: Decodable, Sendable, Hashable {
    /// Creates the empty value.
    public init() {}

    /// Creates the empty value whatever the document holds.
    ///
    /// - Parameter decoder: Not read.
    public init(from decoder: any Decoder) throws {}
}

/// A type that an empty body decodes into without a decoder: ``NoContent``, and optionals (as
/// `nil`).
protocol EmptyBodyDecodable {
    /// The value of an empty body.
    static var emptyBody: Self { get }
}

extension NoContent: EmptyBodyDecodable {
    static var emptyBody: NoContent { NoContent() }
}

extension Optional: EmptyBodyDecodable {
    static var emptyBody: Wrapped? { nil }
}
