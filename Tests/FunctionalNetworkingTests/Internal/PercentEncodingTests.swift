import Foundation
import Testing

@testable import FunctionalNetworking

@Suite("PercentEncoding")
struct PercentEncodingTests {
    @Test func encodesSpacesInPathSegmentsAsPercent20() {
        #expect(PercentEncoding.encodePathSegment("a b") == "a%20b")
    }

    @Test func encodesSpacesInQueryComponentsAsPercent20NeverPlus() {
        #expect(PercentEncoding.encodeQueryComponent("a b") == "a%20b")
    }

    @Test func encodesUnicodeAsUpperCaseHexOfItsUTF8Bytes() {
        #expect(PercentEncoding.encodePathSegment("café") == "caf%C3%A9")
        #expect(PercentEncoding.encodeQueryComponent("日本") == "%E6%97%A5%E6%9C%AC")
        #expect(PercentEncoding.encodeQueryComponent("🎉") == "%F0%9F%8E%89")
        #expect(PercentEncoding.encodePathSegment("e\u{301}") == "e%CC%81")
    }

    @Test(
        arguments: [
            ("?", "%3F"), ("#", "%23"), ("%", "%25"), ("/", "%2F"), ("\"", "%22"), ("[", "%5B"),
            ("]", "%5D"), ("\\", "%5C"), ("\n", "%0A"), ("\u{0}", "%00"), ("\u{7F}", "%7F"),
        ].map { (EscapedText($0), $1) })
    func encodesCharactersNotAllowedInAPathSegment(character: EscapedText, encoded: String) {
        #expect(PercentEncoding.encodePathSegment(character.text) == encoded)
    }

    @Test func keepsUnreservedSubDelimsColonAndAtInPathSegments() {
        let allowed = "AZaz09-._~!$&'()*+,;=:@"
        #expect(PercentEncoding.encodePathSegment(allowed) == allowed)
    }

    @Test(arguments: [
        ("?", "%3F"), ("#", "%23"), ("&", "%26"), ("=", "%3D"), ("+", "%2B"), ("/", "%2F"),
        ("%", "%25"), (":", "%3A"), ("@", "%40"), ("!", "%21"), ("'", "%27"), ("*", "%2A"),
        (",", "%2C"), (";", "%3B"), ("$", "%24"), ("(", "%28"), (")", "%29"),
    ])
    func encodesEveryReservedCharacterInQueryComponents(character: String, encoded: String) {
        #expect(PercentEncoding.encodeQueryComponent(character) == encoded)
    }

    @Test func keepsOnlyUnreservedCharactersInQueryComponents() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(PercentEncoding.encodeQueryComponent(unreserved) == unreserved)
        for byte in UInt8(0)...0x7F where !unreserved.utf8.contains(byte) {
            let text = String(decoding: [byte], as: UTF8.self)
            #expect(PercentEncoding.encodeQueryComponent(text).hasPrefix("%"), "byte \(byte)")
        }
    }

    @Test func encodesAlreadyEncodedLookingTextAgainBecauseInputIsRaw() {
        #expect(PercentEncoding.encodePathSegment("%41") == "%2541")
        #expect(PercentEncoding.encodeQueryComponent("100%") == "100%25")
    }

    @Test func encodesDotSegmentsSoTheyNeverNavigate() {
        #expect(PercentEncoding.encodePathSegment(".") == "%2E")
        #expect(PercentEncoding.encodePathSegment("..") == "%2E%2E")
        #expect(PercentEncoding.encodePathSegment("...") == "...")
        #expect(PercentEncoding.encodePathSegment(".env") == ".env")
    }

    @Test func leavesEmptyTextEmpty() {
        #expect(PercentEncoding.encodePathSegment("") == "")
        #expect(PercentEncoding.encodeQueryComponent("") == "")
    }

    @Test func encodesVeryLongTextCompletely() {
        let long = String(repeating: "a b/é", count: 2_000)
        #expect(long.count == 10_000)
        let encoded = PercentEncoding.encodePathSegment(long)
        #expect(encoded == String(repeating: "a%20b%2F%C3%A9", count: 2_000))
        #expect(encoded.removingPercentEncoding == long)
    }

    @Test func decodesBackToTheOriginalForGeneratedText() {
        var generator = EndpointSeededGenerator(seed: 0x00C0_FFEE)
        for _ in 0..<500 {
            let text = EndpointRandomText.string(using: &generator, maxLength: 30)
            let segment = PercentEncoding.encodePathSegment(text)
            let query = PercentEncoding.encodeQueryComponent(text)
            #expect(Array((segment.removingPercentEncoding ?? "").utf8) == Array(text.utf8))
            #expect(Array((query.removingPercentEncoding ?? "").utf8) == Array(text.utf8))
            #expect(query.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") })
        }
    }
}
