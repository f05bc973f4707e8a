import Testing

/// A test argument whose text may hold line breaks or control characters: the test's output
/// shows it escaped, as a Swift literal (`"GET /\r\n\r\n"`), so each test case stays on one line.
struct EscapedText: Sendable, CustomTestStringConvertible {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    var testDescription: String {
        text.debugDescription
    }
}
