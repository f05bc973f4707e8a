/// The `Cache-Control` directives (RFC 9111 §5.2) that ``ResponseCache`` acts on.
///
/// Directive names compare ignoring case; unknown directives are ignored. A `max-age` that is
/// not a number makes the response count as stale (RFC 9111 §4.2.1), and one too large for an
/// `Int` counts as 2³¹ seconds (§1.2.2).
struct CacheDirectives: Equatable {
    /// `no-store`: do not keep the message.
    var noStore = false
    /// `no-cache`: do not answer from a cache without revalidating, which this cache cannot do.
    var noCache = false
    /// `max-age`, in seconds; `0` when present but malformed.
    var maxAge: Int?

    /// Reads the directives of a `Cache-Control` field value such as
    /// `"public, max-age=60"`; `nil` gives no directives.
    init(_ value: String?) {
        guard let value else { return }
        for part in value.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingSpaces().lowercased()
            switch name {
            case "no-store":
                noStore = true
            case "no-cache":
                noCache = true
            case "max-age":
                let argument = pieces.count > 1 ? pieces[1].trimmingSpaces() : ""
                maxAge = Self.deltaSeconds(argument)
            default:
                continue
            }
        }
    }

    /// The value of a delta-seconds argument, which may be quoted.
    private static func deltaSeconds(_ text: Substring) -> Int {
        var digits = text
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" {
            digits = digits.dropFirst().dropLast()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return 0
        }
        return Int(digits) ?? Int(Int32.max) + 1
    }
}

extension Substring {
    /// This text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[start...end]
    }
}
