import Foundation
import FunctionalNetworking

/// One header field, written as a line of a ``HeadersBuilder``: a name and a value.
///
/// Write any field as `Header("X-Request-ID", id)`, or use the factories for the common ones:
///
/// ```swift
/// endpoint.headers {
///     Header.accept("application/json")
///     Header.authorization(bearer: token)
///     Header("X-Request-ID", id)
/// }
/// ```
///
/// Write the type name, `Header.accept(…)`: in a builder, a line that starts with `.` would
/// continue the line before it as a member access.
///
/// Nothing is checked here: `Endpoint.urlRequest()` checks every field before a request
/// exists, and a name that is not an HTTP token or a value with CR, LF or NUL gives
/// `Endpoint.Error.invalidHeader(name:)`, so such a field never reaches the wire.
public struct Header: Sendable, Hashable {
    /// The field name, e.g. `"Accept"`; compared without regard to case.
    public var name: String
    /// The field value, e.g. `"application/json"`.
    public var value: String

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - name: The field name, e.g. `"X-Request-ID"`.
    ///   - value: The field value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `Accept: <mediaType>`: the kind of response the client wants.
    ///
    /// ```swift
    /// Header.accept("application/json")
    /// ```
    ///
    /// - Parameter mediaType: A media range such as `"application/json"` or `"text/*;q=0.5"`.
    /// - Returns: The field.
    public static func accept(_ mediaType: String) -> Header {
        Header("Accept", mediaType)
    }

    /// `Content-Type: <mediaType>`: the kind of body sent.
    ///
    /// - Parameter mediaType: A media type such as `"application/json; charset=utf-8"`.
    /// - Returns: The field.
    public static func contentType(_ mediaType: String) -> Header {
        Header("Content-Type", mediaType)
    }

    /// `Authorization: Bearer <token>`.
    ///
    /// ```swift
    /// Header.authorization(bearer: session.accessToken)
    /// ```
    ///
    /// - Parameter token: The bearer token, sent as it is.
    /// - Returns: The field.
    public static func authorization(bearer token: String) -> Header {
        Header("Authorization", "Bearer \(token)")
    }

    /// `Authorization: Basic <base64(username:password)>` (RFC 7617), the text encoded as
    /// UTF-8.
    ///
    /// - Parameters:
    ///   - username: The user name; it must not contain `:`.
    ///   - password: The password.
    /// - Returns: The field.
    public static func authorization(username: String, password: String) -> Header {
        Header("Authorization", "Basic " + Data("\(username):\(password)".utf8).base64EncodedString())
    }

    /// `User-Agent: <product>`, e.g. `"Shop/2.1 (iOS)"`.
    ///
    /// - Parameter product: The product text.
    /// - Returns: The field.
    public static func userAgent(_ product: String) -> Header {
        Header("User-Agent", product)
    }

    /// `Accept-Language: <language>`, e.g. `"fr-CH"` or `"en;q=0.8"`. Write it once per
    /// language: the fields are joined by `", "` on the wire.
    ///
    /// - Parameter language: A language range, with an optional weight.
    /// - Returns: The field.
    public static func acceptLanguage(_ language: String) -> Header {
        Header("Accept-Language", language)
    }
}

/// Builds `HTTPHeaders` from ``Header`` lines, with `if`, `if let`, `if`/`else`, `switch`
/// and `for`.
///
/// Fields keep the order they are written in. A name written more than once gives more than
/// one field, as `HTTPHeaders.add(name:value:)` does (`Accept-Language`, `Cookie`…); the
/// request sends them as one field whose values are joined by `", "`. A line may also be an
/// optional `Header?`, which adds nothing when `nil`, or a whole `HTTPHeaders` value.
///
/// ```swift
/// let endpoint = Endpoint.get("products", id, from: shop)
///     .headers {
///         Header.accept("application/json")
///         if let token {
///             Header.authorization(bearer: token)
///         }
///         for language in ["fr-CH", "en;q=0.8"] {
///             Header.acceptLanguage(language)
///         }
///         if isDebugging {
///             Header("X-Debug", "1")
///         } else {
///             Header("X-Client", "release")
///         }
///     }
/// ```
///
/// The builder is used by ``FunctionalNetworking/Endpoint/headers(_:)``, ``Service/headers(_:)`` and
/// ``FunctionalNetworking/HTTPHeaders/init(_:)``.
@resultBuilder
public enum HeadersBuilder {
    /// A single field.
    public static func buildExpression(_ header: Header) -> [Header] {
        [header]
    }

    /// An optional field: nothing when `nil`.
    public static func buildExpression(_ header: Header?) -> [Header] {
        header.map { [$0] } ?? []
    }

    /// Every field of a header list, in order.
    public static func buildExpression(_ headers: HTTPHeaders) -> [Header] {
        headers.map { Header($0.name, $0.value) }
    }

    /// The fields of each line, in order.
    public static func buildBlock(_ components: [Header]...) -> [Header] {
        components.flatMap { $0 }
    }

    /// The fields of an `if` without `else`: none when the condition is false.
    public static func buildOptional(_ component: [Header]?) -> [Header] {
        component ?? []
    }

    /// The fields of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first component: [Header]) -> [Header] {
        component
    }

    /// The fields of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second component: [Header]) -> [Header] {
        component
    }

    /// The fields of every pass of a `for` loop, in order.
    public static func buildArray(_ components: [[Header]]) -> [Header] {
        components.flatMap { $0 }
    }

    /// The fields of an `if #available` branch.
    public static func buildLimitedAvailability(_ component: [Header]) -> [Header] {
        component
    }

    /// The fields as a header list.
    public static func buildFinalResult(_ component: [Header]) -> HTTPHeaders {
        HTTPHeaders(component.map { ($0.name, $0.value) })
    }
}

extension HTTPHeaders {
    /// Creates a header list with a ``HeadersBuilder``.
    ///
    /// ```swift
    /// let headers = HTTPHeaders {
    ///     Header.accept("application/json")
    ///     if let token { Header.authorization(bearer: token) }
    /// }
    /// ```
    ///
    /// - Parameter content: The fields, one per line, with control flow.
    public init(@HeadersBuilder _ content: () -> HTTPHeaders) {
        self = content()
    }
}
