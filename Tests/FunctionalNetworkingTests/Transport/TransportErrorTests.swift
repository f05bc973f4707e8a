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
        .networkFailure(URLError(.timedOut), url: "http://127.0.0.1:8080/x", timeout: .seconds(1)),
        .networkFailure(URLError(.secureConnectionFailed), url: "https://shop.test/x", attempts: 2),
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

    @Test func aNetworkFailureKeepsItsURLErrorForCodeThatBranchesOnIt() {
        let urlError = URLError(.notConnectedToInternet)
        let error = TransportError.networkFailure(urlError, url: "https://shop.test/items")
        #expect(error.urlError == urlError)
        #expect(error.urlError?.code == .notConnectedToInternet)
        #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        #expect(error.attempts == 1)
        #expect(error.description == "The request to https://shop.test/items failed: the device is not connected to the internet.")
    }

    @Test func theErrorsTheTransportMakesItselfWrapNothing() {
        for error in Self.all where error.urlError == nil {
            #expect(error.underlyingError == nil)
            #expect(error.attempts == 1)
        }
    }

    @Test(arguments: [
        (URLError.Code.timedOut, Duration.milliseconds(1500), "The request to https://shop.test/a timed out after 1.5 s."),
        (.timedOut, .milliseconds(250), "The request to https://shop.test/a timed out after 250 ms."),
        (.cannotFindHost, .zero, "The request to https://shop.test/a failed: its host was not found (no address for its name)."),
        (
            .networkConnectionLost, .zero,
            "The request to https://shop.test/a failed: the connection was lost before the response was complete."
        ),
        (
            .serverCertificateUntrusted, .zero,
            "The request to https://shop.test/a failed: TLS failed: the server's certificate is not trusted (URLError -1202)."
        ),
    ])
    func eachNetworkFailureSaysWhatHappenedInWords(code: URLError.Code, timeout: Duration, words: String) {
        let error = TransportError.networkFailure(URLError(code), url: "https://shop.test/a", timeout: timeout == .zero ? nil : timeout)
        #expect(error.description == words)
        #expect((error as any Error).localizedDescription == words)
    }
}
