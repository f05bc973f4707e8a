/// An HTTP request method: `GET`, `POST`, or any other token.
///
/// ```swift
/// let endpoint = Endpoint(method: .post, baseURL: shop, path: "/login")
/// let custom: HTTPMethod = "PURGE"
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's name as sent on the wire, upper-cased.
    public let rawValue: String

    /// Creates a method from its name; the name is upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// Creates a method from a string literal, such as `"PURGE"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method's name.
    public var description: String { rawValue }

    /// `GET`: read a resource.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: read a resource's headers only.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: submit data; not idempotent.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: change part of a resource; not idempotent.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove a resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`: ask what a resource supports.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`: echo the request back.
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`: open a tunnel.
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110
    /// §9.2.2): `GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT` and `DELETE`. Retrying is safe only
    /// for these.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .trace, .put, .delete: true
        default: false
        }
    }

    /// Whether the method only reads (RFC 9110 §9.2.1): `GET`, `HEAD`, `OPTIONS`, `TRACE`.
    /// Caching and deduplication apply to these by default.
    public var isSafe: Bool {
        switch self {
        case .get, .head, .options, .trace: true
        default: false
        }
    }
}
