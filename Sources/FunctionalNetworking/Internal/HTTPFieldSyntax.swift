/// Checks on the HTTP tokens and field values (RFC 9110 §5.6.2, §5.5) that ``Endpoint`` puts
/// into a request, so that nothing malformed, and no injected line, reaches the wire.
enum HTTPFieldSyntax {
    /// Whether `text` is a non-empty RFC 9110 token: letters, digits and
    /// ``!#$%&'*+-.^_`|~``. Header names and methods must be tokens.
    ///
    /// - Parameter text: A header name such as `"Content-Type"` or a method such as `"GET"`.
    /// - Returns: `false` for `""`, `"Bad Name"`, `"X-A:"` or anything with CR, LF or NUL.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    /// Whether `value` may be sent as a field value: no control characters (among them CR, LF
    /// and NUL, and DEL) other than horizontal tab. Non-ASCII text is allowed.
    ///
    /// - Parameter value: The field value.
    /// - Returns: `false` for `"a\r\nX-Injected: 1"`.
    static func isValidFieldValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F)
        }
    }

    /// Whether `byte` may appear in a token.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
