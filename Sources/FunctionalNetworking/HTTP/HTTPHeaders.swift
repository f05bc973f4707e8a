import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The header fields of a request: an ordered list of name–value pairs whose names compare
/// case-insensitively (ASCII), as HTTP says they do.
///
/// A name may repeat (use ``add(name:value:)``); the subscript reads the first value and
/// replaces every field of a name. Two header lists are equal when they hold, for each name
/// (ignoring case), the same values in the same order; the order of *different* names does not
/// matter, as it does not in HTTP.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["Authorization"] = "Bearer \(token)"
/// headers.add(name: "Accept-Language", value: "en")
/// headers.add(name: "Accept-Language", value: "fr;q=0.5")
/// headers["accept"]                          // "application/json"
/// headers.values(for: "ACCEPT-LANGUAGE")     // ["en", "fr;q=0.5"]
/// ```
///
/// Names and values are not checked here: ``Endpoint/urlRequest()`` checks them and throws
/// ``Endpoint/Error/invalidHeader(name:)`` for a name that is not an HTTP token or a value
/// with a control character such as CR, LF or NUL, before anything is sent.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field as stored.
    fileprivate struct Field: Sendable, Hashable {
        var name: String
        var value: String
        /// `name`, ASCII lower-cased: the key it is compared and looked up by.
        var key: String
    }

    /// The fields, in the order they were added.
    private var fields: [Field]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from name–value pairs, kept in order; names may repeat.
    ///
    /// ```swift
    /// let headers = HTTPHeaders([("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
    /// ```
    ///
    /// - Parameter fields: The fields as `(name, value)` pairs.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1, key: Self.key(for: $0.0)) }
    }

    /// Creates a header list from a dictionary literal, such as
    /// `["Accept": "application/json"]`. The fields keep the literal's order, and a name
    /// written twice (in different case) gives two fields.
    ///
    /// - Parameter elements: The literal's name–value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, counting each repeat of a name.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field named `name` (ignoring case); setting it replaces every
    /// field of that name with one field in the place of the first, and setting `nil`
    /// removes them all.
    ///
    /// ```swift
    /// headers["content-type"] = "application/json"   // replaces "Content-Type"
    /// headers["X-Debug"] = nil                        // removes it
    /// ```
    ///
    /// - Parameter name: The field name.
    public subscript(name: String) -> String? {
        get {
            let key = Self.key(for: name)
            return fields.first { $0.key == key }?.value
        }
        set {
            let key = Self.key(for: name)
            guard let newValue else {
                fields.removeAll { $0.key == key }
                return
            }
            let field = Field(name: name, value: newValue, key: key)
            guard let first = fields.firstIndex(where: { $0.key == key }) else {
                fields.append(field)
                return
            }
            fields[first] = field
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if fields[index].key == key {
                    fields.remove(at: index)
                } else {
                    index = fields.index(after: index)
                }
            }
        }
    }

    /// Appends a field, keeping any that already have the name; for headers that repeat, such
    /// as `Accept-Language` or `Cookie`.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value, key: Self.key(for: name)))
    }

    /// The values of every field named `name` (ignoring case), in order.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The values; empty when there is no such field.
    public func values(for name: String) -> [String] {
        let key = Self.key(for: name)
        return fields.filter { $0.key == key }.map(\.value)
    }

    /// Whether some field is named `name` (ignoring case).
    ///
    /// - Parameter name: The field name.
    /// - Returns: `true` when at least one field has the name.
    public func contains(_ name: String) -> Bool {
        let key = Self.key(for: name)
        return fields.contains { $0.key == key }
    }

    /// These headers with `other`'s on top: for each name in `other`, its fields replace all
    /// of this list's fields of that name (later fields win); other fields stay where they are.
    ///
    /// ```swift
    /// let defaults: HTTPHeaders = ["Accept": "application/json", "User-Agent": "Shop/1"]
    /// defaults.merging(["accept": "text/html"])   // accept: text/html, User-Agent: Shop/1
    /// ```
    ///
    /// - Parameter other: The fields that win.
    /// - Returns: The merged header list.
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        let replaced = Set(other.fields.map(\.key))
        var merged = self
        merged.fields.removeAll { replaced.contains($0.key) }
        merged.fields.append(contentsOf: other.fields)
        return merged
    }

    /// The headers as a dictionary, one entry per name: keyed by the name as first written,
    /// with repeated values joined by `", "` in order (RFC 9110 §5.3), as `URLRequest` holds
    /// them.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for (name, values) in grouped() {
            result[name] = values.joined(separator: ", ")
        }
        return result
    }

    /// The fields grouped by name (ignoring case), in order of each name's first field: the
    /// name as first written and its values in order.
    func grouped() -> [(name: String, values: [String])] {
        var groups: [(name: String, values: [String])] = []
        var indexByKey: [String: Int] = [:]
        for field in fields {
            if let index = indexByKey[field.key] {
                groups[index].values.append(field.value)
            } else {
                indexByKey[field.key] = groups.count
                groups.append((field.name, [field.value]))
            }
        }
        return groups
    }

    /// The values of each name, keyed by the lower-cased name: what equality and hashing use.
    private var valuesByKey: [String: [String]] {
        var result: [String: [String]] = [:]
        for field in fields {
            result[field.key, default: []].append(field.value)
        }
        return result
    }

    /// Whether both lists hold, for each name (ignoring case), the same values in the same
    /// order.
    ///
    /// - Parameters:
    ///   - lhs: A header list.
    ///   - rhs: Another header list.
    /// - Returns: `true` for `["Accept": "a", "X": "1"]` and `["x": "1", "ACCEPT": "a"]`.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count && lhs.valuesByKey == rhs.valuesByKey
    }

    /// Hashes the values of each name (ignoring case), consistently with `==`.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(valuesByKey)
    }

    /// Iterates over the fields in order, as `(name: String, value: String)` pairs with names
    /// as written.
    ///
    /// - Returns: An iterator over the fields.
    public func makeIterator() -> Iterator {
        Iterator(base: fields.makeIterator())
    }

    /// An iterator over a header list's fields.
    public struct Iterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[Field]>

        /// The next field, or `nil` after the last.
        ///
        /// - Returns: The field's name as written, and its value.
        public mutating func next() -> (name: String, value: String)? {
            base.next().map { (name: $0.name, value: $0.value) }
        }
    }

    /// The key a name is compared by: the name with ASCII letters lower-cased.
    private static func key(for name: String) -> String {
        guard name.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            return name
        }
        return String(
            decoding: name.utf8.map { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            }, as: UTF8.self)
    }
}

extension HTTPHeaders {
    /// The header fields of `response`.
    init(response: HTTPURLResponse) {
        self.init()
        for (name, value) in response.allHeaderFields {
            add(name: String(describing: name), value: String(describing: value))
        }
    }
}
