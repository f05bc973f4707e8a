extension LoopbackServer {
    /// One HTTP header field: a name and a value, kept in the order it was sent.
    ///
    /// Header lists are plain arrays, so a name may repeat (e.g. `Set-Cookie`).
    /// Names compare case-insensitively only through the lookup helpers
    /// (``RecordedRequest/header(_:)``, ``Response/header(_:)``); the stored
    /// spelling is preserved as written.
    ///
    /// ```swift
    /// let response = LoopbackServer.Response.text("hi", headers: [
    ///     .init("Set-Cookie", "a=1"),
    ///     .init("Set-Cookie", "b=2"),
    /// ])
    /// ```
    public struct Header: Sendable, Hashable, CustomStringConvertible {
        /// The field name, as written, e.g. `Content-Type`.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String

        /// Creates a header field.
        ///
        /// - Parameters:
        ///   - name: The field name, e.g. `"Content-Type"`.
        ///   - value: The field value, e.g. `"application/json"`.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }

        /// The field as it appears on the wire, e.g. `Content-Type: text/plain`.
        public var description: String { "\(name): \(value)" }

        /// Whether this field's name equals `other`, ignoring ASCII case.
        ///
        /// - Parameter other: The name to compare with.
        /// - Returns: `true` for e.g. `content-length` versus `Content-Length`.
        func hasName(_ other: String) -> Bool {
            name.caseInsensitiveEquals(other)
        }
    }
}

extension [LoopbackServer.Header] {
    /// The first value for `name` (case-insensitive), or `nil`.
    func firstValue(named name: String) -> String? {
        first { $0.hasName(name) }?.value
    }

    /// Every value for `name` (case-insensitive), in order.
    func values(named name: String) -> [String] {
        filter { $0.hasName(name) }.map(\.value)
    }
}

extension String {
    /// ASCII case-insensitive equality, without allocating lowercased copies.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { Self.asciiLowercased($0) == Self.asciiLowercased($1) }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte + 32 : byte
    }
}
