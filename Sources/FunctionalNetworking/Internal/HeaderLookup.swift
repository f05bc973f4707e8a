/// Finds header fields by name, ignoring ASCII case, without allocating.
///
/// `URLRequest.value(forHTTPHeaderField:)` on Linux lower-cases every name it compares (a new
/// string each time a name is longer than 15 bytes); the composers that look at every request
/// (the cache, de-duplication) read a few names from the dictionary once instead.
enum HeaderLookup {
    /// The value of the field called `name` in `fields`, whatever the case of either.
    static func value(of name: String, in fields: [String: String]) -> String? {
        if let exact = fields[name] {
            return exact
        }
        for (key, value) in fields where equalIgnoringASCIICase(key, name) {
            return value
        }
        return nil
    }

    /// Whether `fields` has a field called by any of `names`, whatever the case.
    static func containsAny(of names: [String], in fields: [String: String]) -> Bool {
        fields.keys.contains { key in names.contains { equalIgnoringASCIICase(key, $0) } }
    }

    /// Whether `lhs` and `rhs` are equal, ignoring the case of ASCII letters.
    static func equalIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { lowered($0) == lowered($1) }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
