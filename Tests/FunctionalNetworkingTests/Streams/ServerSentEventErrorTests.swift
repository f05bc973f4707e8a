import Foundation
import FunctionalNetworking
import Testing

@Suite("ServerSentEventError")
struct ServerSentEventErrorTests {
    @Test("Each error says in words what happened and what to do, in description and localizedDescription alike")
    func words() {
        for error in [ServerSentEventError.lineTooLong(limit: 10), .eventTooLarge(limit: 10)] {
            #expect(error.description.contains("limit of 10 bytes"))
            #expect(error.description.contains("maximumEventSize"))
            #expect(error.localizedDescription == error.description)
        }
    }
}
