import Foundation
import FunctionalNetworking

/// One query item, written as a line of a ``QueryItemsBuilder``: a name and a value taken
/// from any `CustomStringConvertible`, or a name alone.
///
/// ```swift
/// Query("q", "café & crème")   // q=caf%C3%A9%20%26%20cr%C3%A8me
/// Query("page", 2)             // page=2
/// Query("inStock", true)       // inStock=true
/// Query("sort", sort)          // a `String?`: nothing at all when `sort` is nil
/// Query("verbose")             // verbose, a flag with no `=`
/// ```
///
/// **Missing values.** A value's `description` is sent, so `Int`, `Bool`, `Double`, `UUID`
/// and your own `CustomStringConvertible` types work as they are. Passing an *optional*
/// value uses the failable initializer: when it is `nil`, the initializer gives `nil` and the
/// builder drops the item entirely — an optional filter that is not set is simply not sent.
/// To send a name without a value (`?verbose`), say so with ``init(_:)``. For a list of
/// values, write one `Query` per value in a `for` loop (an array's `description` would be
/// sent as one value).
///
/// Names and values are raw text; `Endpoint.url` percent-encodes them.
public struct Query: Sendable, Hashable {
    /// The item's name, as raw text.
    public var name: String
    /// The item's value as raw text, or `nil` for a flag sent without `=`.
    public var value: String?

    /// Creates an item whose value is `value.description`.
    ///
    /// - Parameters:
    ///   - name: The item's name.
    ///   - value: The value, e.g. a `String`, `Int` or `Bool`.
    public init(_ name: String, _ value: some CustomStringConvertible) {
        self.name = name
        self.value = value.description
    }

    /// Creates an item from an optional value, or `nil` when the value is `nil`, so that a
    /// ``QueryItemsBuilder`` leaves the item out.
    ///
    /// ```swift
    /// let sort: String? = nil
    /// endpoint.queryItems { Query("sort", sort) }   // no `sort` item
    /// ```
    ///
    /// - Parameters:
    ///   - name: The item's name.
    ///   - value: The value, or `nil` for no item.
    public init?(_ name: String, _ value: (some CustomStringConvertible)?) {
        guard let value else { return nil }
        self.init(name, value)
    }

    /// Creates a flag: an item with a name and no value, sent as `name` with no `=`.
    ///
    /// ```swift
    /// Query("verbose")   // ?verbose
    /// ```
    ///
    /// - Parameter name: The item's name.
    public init(_ name: String) {
        self.name = name
        self.value = nil
    }

    /// The item as a `URLQueryItem`.
    public var queryItem: URLQueryItem {
        URLQueryItem(name: name, value: value)
    }
}

/// Builds `[URLQueryItem]` from ``Query`` lines, with `if`, `if let`, `if`/`else`, `switch`
/// and `for`.
///
/// Items keep the order they are written in, and a name may repeat (`tag=a&tag=b`). A line
/// may be a ``Query``, an optional `Query?` (nothing when `nil`, which is what
/// `Query("sort", sort)` gives for a `nil` `sort`), or a `URLQueryItem`.
///
/// ```swift
/// let endpoint = Endpoint.get("products", from: shop)
///     .queryItems {
///         Query("q", text)
///         Query("page", page)                // Int
///         Query("category", category)        // String?: left out when nil
///         for tag in tags {
///             Query("tag", tag)
///         }
///         if onlyInStock {
///             Query("inStock", true)
///         }
///         if isDebugging {
///             Query("trace")                 // ?trace, a flag
///         }
///     }
/// ```
///
/// The builder is used by ``FunctionalNetworking/Endpoint/queryItems(_:)``.
@resultBuilder
public enum QueryItemsBuilder {
    /// A single item.
    public static func buildExpression(_ query: Query) -> [URLQueryItem] {
        [query.queryItem]
    }

    /// An optional item: nothing when `nil`.
    public static func buildExpression(_ query: Query?) -> [URLQueryItem] {
        query.map { [$0.queryItem] } ?? []
    }

    /// A `URLQueryItem` as it is.
    public static func buildExpression(_ item: URLQueryItem) -> [URLQueryItem] {
        [item]
    }

    /// The items of each line, in order.
    public static func buildBlock(_ components: [URLQueryItem]...) -> [URLQueryItem] {
        components.flatMap { $0 }
    }

    /// The items of an `if` without `else`: none when the condition is false.
    public static func buildOptional(_ component: [URLQueryItem]?) -> [URLQueryItem] {
        component ?? []
    }

    /// The items of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first component: [URLQueryItem]) -> [URLQueryItem] {
        component
    }

    /// The items of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second component: [URLQueryItem]) -> [URLQueryItem] {
        component
    }

    /// The items of every pass of a `for` loop, in order.
    public static func buildArray(_ components: [[URLQueryItem]]) -> [URLQueryItem] {
        components.flatMap { $0 }
    }

    /// The items of an `if #available` branch.
    public static func buildLimitedAvailability(_ component: [URLQueryItem]) -> [URLQueryItem] {
        component
    }
}
