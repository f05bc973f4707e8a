import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The eight mistakes a new user makes, made through the front door (a ``NetworkSession``,
/// ``networking(from:)``, `.decoded()`), and the exact words each error says, in
/// `String(describing:)` and `localizedDescription` alike.
@Suite("Eight mistakes, each in words")
struct EightMistakesTests {
    /// The README's stack, on a session for tests.
    private static func send(_ session: NetworkSession = makeTestNetworkSession()) -> Networking {
        networking(from: session.transport(with: .retry(), .validatingStatus()))
    }

    /// The error `future` fails with, within 30 s.
    private static func failure<Value>(of future: Future<Value>) async throws -> any Error {
        try #require(await future.result(within: .seconds(30)).failure)
    }

    /// Expects `error` to say `words`, in its description and its localized description.
    private static func expectWords(_ error: any Error, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(String(describing: error) == words, sourceLocation: sourceLocation)
        #expect(error.localizedDescription == words, sourceLocation: sourceLocation)
    }

    @Test func anInvalidURLSaysWhichPartOfTheEndpointIsWrong() async throws {
        let endpoint = Endpoint(destination: .server(scheme: "https", host: "", port: nil), path: "/items")
        let error = try await Self.failure(of: Self.send()(endpoint))
        #expect(error as? Endpoint.Error == .invalidURL)
        Self.expectWords(error, "The endpoint does not make a valid absolute URL: the host is empty, in https:///items.")
    }

    @Test func aWrongJSONShapeNamesTheTypeTheMissingKeyAndWhereItIs() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id":7,"title":"iPad Pro"}"#) }
        defer { server.stop() }
        let product: Future<Product> = Self.send()(Endpoint(baseURL: server.baseURL, path: "/products/7")).decoded()
        let error = try await Self.failure(of: product)
        #expect(error is DecodingFailure)
        Self.expectWords(error, #"Could not decode Product: the key "name" is missing at the top level."#)
    }

    @Test func a404NamesTheStatusAndTheURL() async throws {
        let server = try makeShopServer()
        defer { server.stop() }
        let error = try await Self.failure(of: Self.send()(Endpoint(baseURL: server.baseURL, path: "/products/70")))
        #expect((error as? HTTPStatusError)?.status == 404)
        Self.expectWords(
            error,
            "The server answered 404 (Not Found) for http://127.0.0.1:\(server.port)/products/70. "
                + #"Body: {"message":"No such product"}"#
        )
    }

    @Test func aTimeoutSaysAfterHowLongAndHowManyAttempts() async throws {
        let server = try LoopbackServer { _ in .fault(.stall) }
        defer { server.stop() }
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/slow", timeout: 1)
        let error = try await Self.failure(of: Self.send()(endpoint))
        #expect((error as? TransportError)?.urlError?.code == .timedOut)
        Self.expectWords(
            error, "The request to http://127.0.0.1:\(server.port)/slow timed out after 1 s. Gave up after 3 attempts."
        )
    }

    @Test func aRefusedConnectionSaysItCouldNotConnect() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let error = try await Self.failure(of: Self.send()(Endpoint(baseURL: refusing.baseURL, path: "/items")))
        #expect((error as? TransportError)?.urlError?.code == .cannotConnectToHost)
        Self.expectWords(
            error,
            "The request to http://127.0.0.1:\(refusing.port)/items could not connect: the connection was refused, "
                + "or the server could not be reached. Gave up after 3 attempts."
        )
    }

    @Test func aCancelledRequestFailsWithCancellationError() async throws {
        let server = try LoopbackServer { _ in .fault(.stall) }
        defer { server.stop() }
        let call = Self.send()(Endpoint(baseURL: server.baseURL, path: "/slow"))
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        _ = call.cancel()
        let error = try await Self.failure(of: call)
        #expect(error is CancellationError)
        #expect(String(describing: error) == "CancellationError()")
    }

    @Test func a401NamesTheStatusAndTheURL() async throws {
        let server = try LoopbackServer { _ in .status(401) }
        defer { server.stop() }
        let error = try await Self.failure(of: Self.send()(Endpoint(baseURL: server.baseURL, path: "/account")))
        #expect((error as? HTTPStatusError)?.status == 401)
        Self.expectWords(error, "The server answered 401 (Unauthorized) for http://127.0.0.1:\(server.port)/account.")
    }

    @Test func a401AfterARedirectToAnotherHostSaysTheTokenWasDroppedAndHowToAllowIt() async throws {
        let account = try LoopbackServer { request in
            request.header("Authorization") == "Bearer t0k-S3CRET" ? .text("ada") : .status(401)
        }
        defer { account.stop() }
        let elsewhere = try #require(URL(string: "http://localhost:\(account.port)/account"))
        let front = try LoopbackServer { _ in .redirect(to: elsewhere) }
        defer { front.stop() }
        let endpoint = Endpoint(baseURL: front.baseURL, path: "/account").setting(header: "Authorization", to: "Bearer t0k-S3CRET")
        let error = try await Self.failure(of: Self.send()(endpoint))
        let status = try #require(error as? HTTPStatusError)
        #expect(status.credentialsDroppedByRedirect?.headerNames == ["Authorization"])
        Self.expectWords(
            error,
            "The server answered 401 (Unauthorized) for http://localhost:\(account.port)/account. The request was redirected "
                + "from http://127.0.0.1:\(front.port) to http://localhost:\(account.port), another origin, so its "
                + "Authorization header was not sent there (credentials never follow a redirect to another origin). "
                + "If http://localhost:\(account.port) should receive them, send the request to it directly, or add them "
                + "to Redirect.proposedRequest in a RedirectPolicy of your own."
        )
    }
}
