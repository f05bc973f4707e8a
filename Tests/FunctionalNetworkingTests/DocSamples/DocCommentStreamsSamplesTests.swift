import Foundation
import FunctionalNetworking
import Testing

// The samples of the `///` comments of Sources/FunctionalNetworking/Streams, each inside a test
// as the comment shows it.

@Suite("Doc-comment samples: ServerSentEvent")
struct ServerSentEventDocSamplesTests {
    @Test("An event made by hand")
    func event() {
        let event = ServerSentEvent(event: "update", data: "{\"price\": 42}", id: "7")
        #expect(event.description == #"event "update", id "7", data "{\"price\": 42}""#)
    }
}

@Suite("Doc-comment samples: ServerSentEventParser")
struct ServerSentEventParserDocSamplesTests {
    @Test("Events come out as the blank lines that end them arrive")
    func parse() throws {
        var parser = ServerSentEventParser()
        var events = try parser.parse(Data("event: greeting\ndata: hello\nid: 1\n".utf8))
        events += try parser.parse(Data("\ndata: world\n\n".utf8))
        // events[0]: event "greeting", id "1", data "hello"
        // events[1]: event "message", id "1", data "world"
        #expect(events == [ServerSentEvent(event: "greeting", data: "hello", id: "1"), ServerSentEvent(data: "world", id: "1")])
    }
}
