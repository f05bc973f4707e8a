/// Percent-encoding (RFC 3986 §2.1) of raw text for the parts of a URL that ``Endpoint`` builds.
///
/// The input is always raw text, never something already encoded: every byte of its UTF-8 form
/// that is not allowed as-is becomes `%` followed by two upper-case hex digits, so `%` itself
/// becomes `%25`.
enum PercentEncoding {
    /// Encodes one path segment: everything but RFC 3986 `pchar` characters (unreserved,
    /// sub-delims, `:` and `@`) is encoded, including `/`, `?`, `#`, `%`, space and non-ASCII.
    ///
    /// The segments `.` and `..` are encoded as `%2E` and `%2E%2E`, so that nothing on the way
    /// (URL standardisation, libcurl) removes them as dot-segments: a segment is data here,
    /// never navigation.
    ///
    /// - Parameter segment: The segment's raw text.
    /// - Returns: The segment, ready to put between two `/`.
    static func encodePathSegment(_ segment: String) -> String {
        switch segment {
        case ".": "%2E"
        case "..": "%2E%2E"
        default: encode(segment, keeping: isPathSegmentCharacter)
        }
    }

    /// Encodes a query item's name or value strictly: only the RFC 3986 unreserved characters
    /// `A–Z a–z 0–9 - . _ ~` stay as they are; everything else, including `+ & = ? / # %` and
    /// space, is encoded, so no server can read `+` as a space or split on `&` or `=`.
    ///
    /// - Parameter component: The name's or value's raw text.
    /// - Returns: The encoded text.
    static func encodeQueryComponent(_ component: String) -> String {
        encode(component, keeping: isUnreserved)
    }

    /// Encodes every UTF-8 byte of `text` for which `keeping` is false.
    ///
    /// - Parameters:
    ///   - text: The raw text.
    ///   - keeping: Whether a byte may stay as it is; it is only asked about ASCII bytes.
    /// - Returns: The encoded text.
    static func encode(_ text: String, keeping: (UInt8) -> Bool) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 >= 0x80 || !keeping($0) }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if byte < 0x80, keeping(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `byte` is an RFC 3986 unreserved character: `A–Z a–z 0–9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `byte` may appear as-is in a path segment (RFC 3986 `pchar` without
    /// `pct-encoded`): unreserved, the sub-delims `! $ & ' ( ) * + , ; =`, `:` and `@`.
    static func isPathSegmentCharacter(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        return switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
            UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    /// The upper-case hex digits, indexed by value.
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
