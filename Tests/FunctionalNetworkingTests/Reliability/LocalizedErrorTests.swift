import Foundation
import Futures
import Testing

@testable import FunctionalNetworking

/// Every public error says the same words in `localizedDescription` as in `description`: on
/// Apple platforms apps show `localizedDescription`.
@Suite("Every public error is a LocalizedError")
struct LocalizedErrorTests {
    static let errors: [any Error & CustomStringConvertible] = [
        BodyError.unreadableFile("/tmp/a", reason: "it does not exist"),
        DecodingFailure(typeName: "Product", codingPath: "name", reason: "the key \"name\" is missing"),
        HTTPStatusError(status: 503, url: URL(string: "https://shop.test/items")),
        AuthenticationError.refreshLimitReached(3, within: .seconds(60)),
        AuthenticationError.refreshFailed(HTTPStatusError(status: 400)),
        TransportError.networkFailure(URLError(.timedOut), url: "https://shop.test/items", timeout: .seconds(1)),
        TransportError.unsupportedURL(nil),
        Endpoint.Error.invalidURL,
        TimeoutError(limit: .seconds(2)),
    ]

    @Test(arguments: 0..<errors.count)
    func localizedDescriptionSaysTheDescription(index: Int) {
        let error = Self.errors[index]
        #expect((error as any Error).localizedDescription == error.description)
        #expect(!error.description.contains("The operation could not be completed"))
    }

    @Test func aSequentialQueuesFailureSaysItsWordsToo() async throws {
        let failing: Networking = { _ in Future(error: HTTPStatusError(status: 500)) }
        let queue = SequentialQueue(networking: failing)
        let error = await #expect(throws: SequentialQueue.Failure.self) {
            _ = try await queue.run([Endpoint(baseURL: URL(string: "https://shop.test")!)]).value
        }
        let failure = try #require(error)
        #expect((failure as any Error).localizedDescription == failure.description)
    }
}
