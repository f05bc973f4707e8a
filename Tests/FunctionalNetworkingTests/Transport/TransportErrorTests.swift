import Foundation
import FunctionalNetworking
import Testing

@Suite("TransportError")
struct TransportErrorTests {
    static let all: [TransportError] = [
        .responseTooLarge(limit: 67_108_864, url: "https://api.example.com/big"),
        .tooManyRedirects(limit: 20, url: "https://api.example.com/loop"),
        .insecureRedirect(from: "https://api.example.com/a", to: "http://api.example.com/b"),
        .crossOriginBody(status: 307, from: "https://api.example.com", to: "https://other.example.com"),
        .downloadFailed(path: "/tmp/report.pdf", reason: "no space left on device"),
        .invalidMethod("GET /smuggled HTTP/1.1\r\n\r\nGET"),
        .invalidHeaderName("X-A\r\nX-B"),
        .invalidHeaderValue(name: "Authorization"),
        .unsupportedURL("ftp://example.com/x"),
        .unsupportedURL(nil),
        .invalidContentLength("5, 13", url: "http://127.0.0.1:8080/x"),
        .invalidContentLength("5, x", url: "http://127.0.0.1:8080/x"),
    ]

    @Test(arguments: all)
    func describesEveryCaseInOneSentenceOrMoreAndLocalizedDescriptionSaysTheSame(error: TransportError) {
        let text = error.description
        #expect(text.first?.isUppercase == true, "\(text)")
        #expect(text.hasSuffix("."), "\(text)")
        #expect(text.split(separator: " ").count >= 8, "\(text)")
        #expect(!text.contains("\r") && !text.contains("\n"), "\(text)")
        #expect(error.localizedDescription == text)
        #expect((error as any Error).localizedDescription == text)
    }

    @Test func anInvalidMethodIsQuotedEscapedWithWhatIsWrongAndNothingWasSent() {
        let text = TransportError.invalidMethod("GET\r\nX-Injected: 1").description
        #expect(text.contains(#""GET\r\nX-Injected: 1""#))
        #expect(text.contains("it contains CR"))
        #expect(text.contains("not sent"))
    }

    @Test func anInvalidHeaderNameIsQuotedEscapedWithWhatIsWrong() {
        let text = TransportError.invalidHeaderName("X-A\r\nX-B").description
        #expect(text.contains(#""X-A\r\nX-B""#))
        #expect(text.contains("it contains CR"))
        #expect(TransportError.invalidHeaderName("").description.contains("it is empty"))
    }

    @Test func anInvalidHeaderValueNamesTheHeaderAndSaysTheValueIsNotShown() {
        let text = TransportError.invalidHeaderValue(name: "Authorization").description
        #expect(text.contains(#""Authorization""#))
        #expect(text.contains("not shown"))
    }

    @Test func aVeryLongNameIsCutAt100Characters() {
        let text = TransportError.invalidHeaderName(String(repeating: "a", count: 500) + "\r\n").description
        #expect(text.contains(String(repeating: "a", count: 100) + "\"…"))
        #expect(!text.contains(String(repeating: "a", count: 101)))
    }

    @Test func anUnsupportedURLSaysWhatTheTransportSends() {
        #expect(
            TransportError.unsupportedURL("ftp://example.com/x").description.contains("ftp://example.com/x is not an http or https URL"))
        #expect(TransportError.unsupportedURL(nil).description.contains("has no URL"))
    }

    @Test func anInvalidContentLengthSaysWhetherTheLengthsConflictOrAreNotLengths() {
        let conflicting = TransportError.invalidContentLength("5, 13", url: "http://127.0.0.1:8080/x").description
        #expect(conflicting.contains(#"Content-Length "5, 13" gives conflicting lengths"#))
        #expect(conflicting.contains("http://127.0.0.1:8080/x"))
        #expect(conflicting.contains("RFC 9112"))
        let invalid = TransportError.invalidContentLength("5, x", url: "http://127.0.0.1:8080/x").description
        #expect(invalid.contains(#""5, x" is not a length"#))
    }
}
