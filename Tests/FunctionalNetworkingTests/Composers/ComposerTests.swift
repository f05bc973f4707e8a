import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records the order in which composers see requests and responses.
final class Trace: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var values: [String] { lock.withLock { entries } }
}

extension Composer {
    static func tracing(_ name: String, into trace: Trace) -> Composer {
        Composer { next in
            { request in
                trace.append("\(name) request")
                let result = try await next(request)
                trace.append("\(name) response")
                return result
            }
        }
    }
}

@Suite("Composer")
struct ComposerTests {
    let request = URLRequest(url: URL(string: "https://shop.test/products")!)

    @Test func theFirstComposerSeesTheRequestFirstAndTheResponseLast() async throws {
        let trace = Trace()
        let base = stubTransport { request in
            trace.append("base")
            return (Data(), stubResponse(for: request))
        }
        let transport = compose(base, with: .tracing("a", into: trace), .tracing("b", into: trace), .tracing("c", into: trace))
        _ = try await transport(request)
        #expect(trace.values == ["a request", "b request", "c request", "base", "c response", "b response", "a response"])
    }

    @Test func stackIsTheSameAsListingTheComposers() async throws {
        let trace = Trace()
        let base = stubTransport(data: Data())
        let stacked = Composer.stack([.tracing("a", into: trace), .tracing("b", into: trace)])
        _ = try await compose(base, with: stacked, .tracing("c", into: trace))(request)
        #expect(trace.values == ["a request", "b request", "c request", "c response", "b response", "a response"])
    }

    @Test func identityChangesNothing() async throws {
        let (data, _) = try await Composer.identity.wrapping(stubTransport(data: Data("x".utf8)))(request)
        #expect(data == Data("x".utf8))
    }

    @Test func modifyingRequestChangesWhatTheNextTransportSees() async throws {
        let echo = stubTransport { request in
            (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
        }
        let transport = compose(echo, with: .modifyingRequest(bearerTokenModifier("abc")))
        #expect(try await transport(request).0 == Data("Bearer abc".utf8))
    }

    @Test func validatingStatusTurnsABadStatusIntoHTTPStatusError() async throws {
        let transport = compose(stubTransport(data: Data("busy".utf8), status: 503), with: .validatingStatus())
        let error = await #expect(throws: HTTPStatusError.self) { try await transport(request) }
        #expect(error?.status == 503)
        #expect(error?.body == Data("busy".utf8))
    }

    @Test func validatingStatusTakesTheAcceptableRange() async throws {
        let transport = compose(stubTransport(status: 304), with: .validatingStatus(200..<400))
        let (_, response) = try await transport(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 304)
    }

    @Test func aSessionsTransportWithComposersReachesTheServer() async throws {
        let server = try LoopbackServer { request in .text(request.header("X-Api-Key") ?? "none") }
        defer { server.stop() }
        let transport = makeTestSession().transport(
            with: .modifyingRequest { request in
                var request = request
                request.setValue("k3y", forHTTPHeaderField: "X-Api-Key")
                return request
            })
        let (data, _) = try await transport(URLRequest(url: server.url(for: "/")))
        #expect(String(decoding: data, as: UTF8.self) == "k3y")
    }
}
