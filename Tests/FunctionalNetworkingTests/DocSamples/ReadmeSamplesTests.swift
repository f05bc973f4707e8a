import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The tour of README.md, as the README shows it. (The README's manifest fragment and its list
// of imports are not Swift a test can hold; `.ci/check-docs.sh` skips them, and
// `.ci/check-readme.sh` builds and runs a package made of the fragment and all the README's
// blocks, verbatim.)

@Suite("Samples: README")
struct ReadmeSamplesTests {
    @Test func theTourLoadsTheChosenItemThroughAComposedTransport() async throws {
        struct Item: Decodable, Sendable {
            let id: Int
            let name: String
        }

        // A shop on 127.0.0.1 for this example; in an app, your API.
        let server = try LoopbackServer { _ in .json(#"{"id":7,"name":"iPad Pro"}"#) }

        // A future is work already under way; a promise is the side that completes it.
        let chosenID = Promise<Int>()
        chosenID.resolve(with: 7)

        // The session you make once and keep, and a networking function over it wrapped in
        // composers: name the parts, the package always puts them in its one order.
        let session = NetworkSession(configuration: .ephemeral)
        let send = session.networking(with: .retry(), .validatingStatus())

        // chain makes one function of three: Int -> Endpoint -> Future<Data> -> Future<Item>.
        let endpoint = { @Sendable (id: Int) in Endpoint(baseURL: server.baseURL, path: "/items/\(id)") }
        let loadItem: @Sendable (Int) -> Future<Item> = chain(chain(endpoint, to: send), to: Future.decoded)

        // Transform the future, bound the wait, and await it.
        let name = try await chosenID.flatMap(loadItem).map { $0.name }.timeout(after: .seconds(30)).value
        server.stop()
        print(name)  // iPad Pro

        #expect(name == "iPad Pro")
        #expect(await server.takeRequest(timeout: .seconds(30))?.path == "/items/7")
    }

    @Test func theScreenInTheIntroductionTakesAClosureReturningAPromise() async throws {
        let screen = await ProductScreen { Promise(value: Product(id: 7, name: "iPad Pro")) }
        await screen.viewWillAppear()
        #expect(try await screen.renderedTitle() == "iPad Pro")
    }
}
