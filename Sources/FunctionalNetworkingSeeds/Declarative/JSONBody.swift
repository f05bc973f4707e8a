import Foundation
import FunctionalNetworking

/// A JSON object written key by key with a ``JSONBodyBuilder``: the body of
/// ``FunctionalNetworking/Endpoint/body(encoder:_:)``.
///
/// ```swift
/// let body = JSONBody {
///     Key("rating", 5)
///     Key("tags", ["fast", "cheap"])
///     Key("author") {
///         Key("name", "Ada")
///         Key("since", 1843)
///     }
///     if let comment {
///         Key("comment", comment)
///     }
/// }
/// // {"rating":5,"tags":["fast","cheap"],"author":{"name":"Ada","since":1843},"comment":"…"}
/// ```
///
/// A value may be anything `Encodable` (numbers, strings, arrays, dictionaries, `Date`, your
/// models, another `JSONBody`), and it is encoded by the `JSONEncoder` the body is encoded
/// with, so its strategies (dates, keys, non-conforming floats) apply. An optional value
/// that is `nil` is encoded as `null`; to leave a key out, write it inside `if let`. When a
/// key is written twice in one object, the later value replaces the earlier one, in the
/// earlier one's place.
///
/// A value that the encoder refuses, such as `Double.nan` with the default encoder, is not a
/// crash: ``FunctionalNetworking/Endpoint/body(encoder:_:)`` throws the core's
/// `BodyError.notEncodable(type:reason:)`, saying where in the object and why. A `JSONBody`
/// is `Encodable`, so any `JSONEncoder` encodes it on its own too:
/// `try JSONEncoder().encode(body)`.
public struct JSONBody: Encodable {
    /// The object's keys, in the order they were written.
    public var keys: [Key]

    /// Creates an object from ``Key`` lines.
    ///
    /// - Parameter content: The keys, one per line, with control flow.
    public init(@JSONBodyBuilder _ content: () -> [Key]) {
        keys = content()
    }

    /// Creates an object from a list of keys.
    ///
    /// - Parameter keys: The keys, in order.
    public init(keys: [Key]) {
        self.keys = keys
    }

    /// Encodes the object's keys into `encoder`, each value with the encoder's strategies.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever a value's encoding throws, e.g. `EncodingError.invalidValue`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        for key in uniqueKeys() {
            try container.encode(key.value, forKey: DynamicKey(stringValue: key.name))
        }
    }

    /// The keys with each name once, the later value winning in the earlier one's place.
    private func uniqueKeys() -> [Key] {
        var indexByName: [String: Int] = [:]
        var result: [Key] = []
        for key in keys {
            if let index = indexByName[key.name] {
                result[index] = key
            } else {
                indexByName[key.name] = result.count
                result.append(key)
            }
        }
        return result
    }

    /// A coding key that is any string.
    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}

/// One key of a ``JSONBody`` object: a name and an `Encodable` value, or a name and a nested
/// object written with the same builder.
///
/// ```swift
/// Key("count", 3)
/// Key("names", ["Ada", "Grace"])
/// Key("note", note)                 // a `String?`: `null` when nil
/// Key("address") {
///     Key("city", "Zürich")
/// }
/// ```
public struct Key {
    /// The key's name in the object.
    public var name: String
    /// The key's value.
    public var value: any Encodable

    /// Creates a key with an `Encodable` value.
    ///
    /// - Parameters:
    ///   - name: The key's name.
    ///   - value: The value; an optional that is `nil` is encoded as `null`.
    public init(_ name: String, _ value: some Encodable) {
        self.name = name
        self.value = value
    }

    /// Creates a key whose value is a nested object.
    ///
    /// - Parameters:
    ///   - name: The key's name.
    ///   - content: The nested object's keys, one per line, with control flow.
    public init(_ name: String, @JSONBodyBuilder _ content: () -> [Key]) {
        self.name = name
        self.value = JSONBody(content)
    }
}

/// Builds the keys of a JSON object from ``Key`` lines, with `if`, `if let`, `if`/`else`,
/// `switch` and `for`; see ``JSONBody``.
///
/// ```swift
/// try endpoint.body {
///     Key("name", name)
///     for (field, value) in extras {
///         Key(field, value)
///     }
///     if isDraft {
///         Key("status", "draft")
///     } else {
///         Key("publishedAt", Date.now)
///     }
/// }
/// ```
@resultBuilder
public enum JSONBodyBuilder {
    /// A single key.
    public static func buildExpression(_ key: Key) -> [Key] {
        [key]
    }

    /// An optional key: nothing when `nil`.
    public static func buildExpression(_ key: Key?) -> [Key] {
        key.map { [$0] } ?? []
    }

    /// The keys of each line, in order.
    public static func buildBlock(_ components: [Key]...) -> [Key] {
        components.flatMap { $0 }
    }

    /// The keys of an `if` without `else`: none when the condition is false.
    public static func buildOptional(_ component: [Key]?) -> [Key] {
        component ?? []
    }

    /// The keys of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first component: [Key]) -> [Key] {
        component
    }

    /// The keys of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second component: [Key]) -> [Key] {
        component
    }

    /// The keys of every pass of a `for` loop, in order.
    public static func buildArray(_ components: [[Key]]) -> [Key] {
        components.flatMap { $0 }
    }

    /// The keys of an `if #available` branch.
    public static func buildLimitedAvailability(_ component: [Key]) -> [Key] {
        component
    }
}
