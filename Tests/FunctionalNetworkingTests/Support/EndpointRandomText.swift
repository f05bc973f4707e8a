/// A seeded SplitMix64 generator, so that generated test cases are the same on every run.
struct EndpointSeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random raw text for URL parts: a mix of ASCII letters and digits, every reserved and
/// otherwise special character, controls, and unicode up to four UTF-8 bytes.
enum EndpointRandomText {
    static let alphabet: [Character] = Array(
        "abcXYZ019-._~" + ":/?#[]@!$&'()*+,;=% \"<>\\^`{|}" + "\t\r\n\u{0}\u{7F}"
            + "éü日本語€\u{301}🎉👩‍💻🇫🇷"
    )

    /// A string of `0...maxLength` characters (at least `minLength`) drawn from ``alphabet``.
    static func string(
        using generator: inout EndpointSeededGenerator, minLength: Int = 0, maxLength: Int = 12
    ) -> String {
        let length = Int.random(in: minLength...maxLength, using: &generator)
        var text = ""
        for _ in 0..<length {
            text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
        }
        return text
    }
}
