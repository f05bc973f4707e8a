import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Numbering")
struct NumberingTests {
    private let request = URLRequest(url: URL(string: "https://shop.test/products")!)

    private func observing(into seen: Collected<RequestContext?>) -> Composer {
        Composer { next in
            { request in
                seen.append(RequestContext.current)
                return try await next(request)
            }
        }
    }

    @Test func requestsAreNumberedOneTwoThreeInOrder() async throws {
        let seen = Collected<RequestContext?>()
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: .numbered(), observing(into: seen))
        for _ in 1...3 {
            _ = try await transport(request)
        }
        #expect(seen.values.map { $0?.number } == [1, 2, 3])
        #expect(Set(seen.values.compactMap { $0?.id }).count == 3)
    }

    @Test func idsAreVersionFourUUIDsThatDifferOnlyByTheNumberInTheirLastBits() async throws {
        let seen = Collected<RequestContext?>()
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: .numbered(), observing(into: seen))
        for _ in 1...3 {
            _ = try await transport(request)
        }
        let ids = seen.values.compactMap { $0?.id?.uuid }
        #expect(ids.count == 3)
        func node(_ id: uuid_t) -> UInt64 {
            withUnsafeBytes(of: id) { raw in raw[10..<16].reduce(0) { $0 << 8 | UInt64($1) } }
        }
        func head(_ id: uuid_t) -> [UInt8] {
            withUnsafeBytes(of: id) { raw in Array(raw[0..<10]) }
        }
        for id in ids {
            #expect(head(id)[6] >> 4 == 4)  // version 4
            #expect(head(id)[8] >> 6 == 0b10)  // RFC 4122 variant
            #expect(head(id) == head(ids[0]))
        }
        #expect((node(ids[1]) &- node(ids[0])) & 0xFFFF_FFFF_FFFF == 1)
        #expect((node(ids[2]) &- node(ids[1])) & 0xFFFF_FFFF_FFFF == 1)
    }

    @Test func eachNumberedComposerCountsOnItsOwn() async throws {
        let seen = Collected<RequestContext?>()
        let first = NetworkSession(sending: stubTransport(data: Data())).transport(with: .numbered(), observing(into: seen))
        let second = NetworkSession(sending: stubTransport(data: Data())).transport(with: .numbered(), observing(into: seen))
        _ = try await first(request)
        _ = try await first(request)
        _ = try await second(request)
        #expect(seen.values.map { $0?.number } == [1, 2, 1])
    }

    @Test func concurrentRequestsGetDistinctNumbers() async throws {
        let seen = Collected<RequestContext?>()
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: .numbered(), observing(into: seen))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 1...50 {
                group.addTask { _ = try await transport(request) }
            }
            try await group.waitForAll()
        }
        #expect(seen.values.compactMap { $0?.number }.sorted() == Array(1...50))
    }

    @Test func composersAboveNumberedCannotSeeTheContext() async throws {
        let above = Collected<RequestContext?>()
        let below = Collected<RequestContext?>()
        let outside = Composer(at: .numbering, observing(into: above).wrapping)
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: outside, .numbered(), observing(into: below))
        _ = try await transport(request)
        #expect(above.values.count == 1)
        #expect(above.values.first??.number == nil)
        #expect(above.values.first??.id == nil)
        #expect(below.values.first??.number == 1)
    }

    @Test func everyAttemptBelowKeepsTheRequestsIDAndNumber() async throws {
        let seen = Collected<RequestContext?>()
        let twice = Composer { next in
            { request in
                _ = try await next(request)
                return try await next(request)
            }
        }
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: .numbered(), twice, observing(into: seen))
        _ = try await transport(request)
        #expect(seen.values.count == 2)
        #expect(seen.values[0]?.id == seen.values[1]?.id)
        #expect(seen.values[0]?.number == seen.values[1]?.number)
        #expect(RequestContext.current.id == nil)
    }

    @Test func nothingOfTheContextIsSentOnTheWire() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let seen = Collected<RequestContext?>()
        let session = makeTestNetworkSession()
        let plain = session.transport
        let numbered = session.transport(with: .numbered(), observing(into: seen))
        _ = try await plain(URLRequest(url: server.url(for: "/plain")))
        _ = try await numbered(URLRequest(url: server.url(for: "/numbered")))
        let withoutContext = try #require(await server.takeRequest(timeout: .seconds(30)))
        let withContext = try #require(await server.takeRequest(timeout: .seconds(30)))
        let context = try #require(seen.values.first ?? nil)
        let id = try #require(context.id)
        #expect(Set(withContext.headers.map { $0.name.lowercased() }) == Set(withoutContext.headers.map { $0.name.lowercased() }))
        for header in withContext.headers {
            #expect(!header.value.localizedCaseInsensitiveContains(id.uuidString))
            #expect(!header.value.localizedCaseInsensitiveContains(id.uuidString.suffix(8)))
        }
        #expect(withContext.target == "/numbered")
        #expect(withContext.body.isEmpty)
    }
}
