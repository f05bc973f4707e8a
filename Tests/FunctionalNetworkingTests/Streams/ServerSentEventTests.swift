import FunctionalNetworking
import Testing

@Suite("ServerSentEvent")
struct ServerSentEventTests {
    @Test("The type defaults to message, with no id and no retry")
    func defaults() {
        let event = ServerSentEvent(data: "x")
        #expect(event.event == "message")
        #expect(event.id == nil)
        #expect(event.retry == nil)
    }

    @Test("The description names every field that is set")
    func description() {
        #expect(ServerSentEvent(event: "update", data: "a\nb", id: "7").description == #"event "update", id "7", data "a\nb""#)
        #expect(ServerSentEvent(data: "", retry: .seconds(1)).description == #"event "message", retry 1.0 seconds, data """#)
    }
}
