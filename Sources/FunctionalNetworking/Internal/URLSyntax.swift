/// Checks on the parts of an absolute URL that ``Endpoint`` puts together from text: scheme,
/// host and port. Everything here is ASCII-only and never traps.
enum URLSyntax {
    /// The ports a URL may name.
    static let validPorts = 0...65535

    /// Whether `scheme` is an RFC 3986 scheme: a letter, then letters, digits, `+`, `-` or `.`.
    ///
    /// - Parameter scheme: The scheme without `:`, e.g. `"https"`.
    /// - Returns: `false` for `""`, `"1http"`, `"ht tp"` or `"https://"`.
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.utf8.first, isLetter(first) else { return false }
        return scheme.utf8.allSatisfy { byte in
            isLetter(byte) || isDigit(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// The host as it goes into a URL's authority, or `nil` when it is not a host name or IP
    /// address that can stand there unchanged.
    ///
    /// A name must be non-empty and made of the unreserved characters `A–Z a–z 0–9 - . _ ~`
    /// (internationalised names go in their `xn--` form). An IPv6 address may be given with or
    /// without brackets and comes back with them.
    ///
    /// - Parameter host: The host, e.g. `"api.example.com"`, `"127.0.0.1"` or `"::1"`.
    /// - Returns: The host for the authority, e.g. `"[::1]"`; `nil` for `""`, `"a b"`,
    ///   `"example.com/x"` or `"user@example.com"`.
    static func authorityHost(_ host: String) -> String? {
        if isIPv6Address(host) { return "[\(host)]" }
        if host.utf8.first == UInt8(ascii: "["), host.utf8.last == UInt8(ascii: "]"), host.utf8.count > 2 {
            let inner = String(host.dropFirst().dropLast())
            return isIPv6Address(inner) ? host : nil
        }
        guard !host.isEmpty, host.utf8.allSatisfy(PercentEncoding.isUnreserved) else { return nil }
        return host
    }

    /// Whether `text` looks like an IPv6 address (hex digits, `:` and `.`, with at least one
    /// `:`). The address itself is checked when the URL is parsed.
    private static func isIPv6Address(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: ":"))
            && text.utf8.allSatisfy { byte in
                isHexDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
