import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession always maps to one package session, for as long as that URLSession lives:
/// reads of `transport` build nothing, and requests one after another reuse connections.
@Suite("One package session per URLSession")
struct PackageSessionRegistryTests {
    @Test func twentyRequestsOneAfterAnotherOnASessionOfOnesOwnShareConnections() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)

        for index in 0..<20 {
            _ = try await session.request(Endpoint(baseURL: server.baseURL, path: "/\(index)")).value(within: .seconds(30))
        }

        #expect(server.requestCount == 20)
        #expect(server.connectionCount <= 2, "20 requests opened \(server.connectionCount) connections")
    }

    @Test func twentyReadsOfTransportShareConnectionsWhateverThePolicyAndComposers() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)

        for index in 0..<20 {
            let transport =
                switch index % 3 {
                case 0: session.transport
                case 1: NetworkSession.standing(for: session).transport(with: .validatingStatus())
                default: NetworkSession.standing(for: session).transport
                }
            _ = try await transport(URLRequest(url: server.url(for: "/\(index)")))
        }

        #expect(server.requestCount == 20)
        #expect(server.connectionCount <= 2, "20 reads of transport opened \(server.connectionCount) connections")
    }

    @Test func twoSessionsGetTwoPackageSessions() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let first = URLSession(configuration: .ephemeral)
        let second = URLSession(configuration: .ephemeral)

        #expect(NetworkSession.standing(for: first) === NetworkSession.standing(for: first))
        #expect(NetworkSession.standing(for: first) !== NetworkSession.standing(for: second))
        for _ in 0..<3 {
            _ = try await first.request(Endpoint(baseURL: server.baseURL, path: "/first")).value(within: .seconds(30))
            _ = try await second.request(Endpoint(baseURL: server.baseURL, path: "/second")).value(within: .seconds(30))
        }
        #expect(server.connectionCount == 2, "two sessions opened \(server.connectionCount) connections")
    }

    @Test func theSharedSessionKeepsItsOnePackageSession() {
        #expect(NetworkSession.standing(for: .shared) === NetworkSession.shared)
        #expect(NetworkSession.standing(for: .shared) === NetworkSession.standing(for: .shared))
    }

    @Test func anEntryIsDroppedOnceItsSessionIsFreedAndALaterSessionGetsItsOwn() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let registry = PackageSessionRegistry()
        weak var freedSession: URLSession?
        weak var freedPackage: NetworkSession?
        do {
            let session = URLSession(configuration: .ephemeral)
            let package = registry.network(for: session)
            _ = try await package.transport(URLRequest(url: server.url(for: "/")))
            freedSession = session
            freedPackage = package
            #expect(registry.network(for: session) === package)
            #expect(registry.count == 1)
        }
        #expect(freedSession == nil)
        #expect(registry.count == 0)
        #expect(freedPackage == nil)

        // Made right after the first is freed, it may well get the same ObjectIdentifier.
        let later = URLSession(configuration: .ephemeral)
        let laterPackage = registry.network(for: later)
        #expect(laterPackage !== freedPackage)
        #expect(registry.network(for: later) === laterPackage)
        #expect(registry.count == 1)
    }

    @Test func aTransportKeepsItsPackageSessionAfterTheSessionIsFreed() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let registry = PackageSessionRegistry()
        weak var freedSession: URLSession?
        weak var keptPackage: PackageSession?
        let transport: Transport
        do {
            let session = URLSession(configuration: .ephemeral)
            let network = registry.network(for: session)
            transport = network.transport
            freedSession = session
            keptPackage = network.package
        }
        #expect(freedSession == nil)
        #expect(registry.count == 0)
        #expect(keptPackage != nil)

        let (data, _) = try await transport(URLRequest(url: server.url(for: "/")))
        #expect(String(decoding: data, as: UTF8.self) == "ok")
    }

    @Test func aHundredConcurrentReadsOfTransportGiveOnePackageSession() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let registry = PackageSessionRegistry()

        // The session lives throughout, so its package sessions do too: identifiers compare them.
        typealias Read = (transport: Transport, package: ObjectIdentifier, privatePackage: ObjectIdentifier)
        let reads = await withTaskGroup(of: Read.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let transport = session.transport
                    return (
                        transport, ObjectIdentifier(NetworkSession.standing(for: session)),
                        ObjectIdentifier(registry.network(for: session))
                    )
                }
            }
            return await group.reduce(into: [Read]()) { $0.append($1) }
        }
        #expect(reads.count == 100)
        #expect(Set(reads.map(\.package)).count == 1)
        #expect(Set(reads.map(\.privatePackage)).count == 1)
        #expect(registry.count == 1)
        let transports = reads.map(\.transport)

        for (index, transport) in transports.prefix(20).enumerated() {
            _ = try await transport(URLRequest(url: server.url(for: "/\(index)")))
        }
        #expect(server.connectionCount <= 2, "20 of the transports opened \(server.connectionCount) connections")
    }

    @Test func aSessionInvalidatedByItsOwnerKeepsSendingThroughItsPackageSession() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let used = URLSession(configuration: .ephemeral)
        let endpoint = Endpoint(baseURL: server.baseURL, path: "/")
        _ = try await used.request(endpoint).value(within: .seconds(30))
        let package = NetworkSession.standing(for: used)

        used.invalidateAndCancel()
        let neverUsed = URLSession(configuration: .ephemeral)
        neverUsed.finishTasksAndInvalidate()

        #expect(NetworkSession.standing(for: used) === package)
        #expect(try await used.request(endpoint).value(within: .seconds(30)) == Data("ok".utf8))
        #expect(try await neverUsed.request(endpoint).value(within: .seconds(30)) == Data("ok".utf8))
        #expect(server.connectionCount == 2, "two sessions opened \(server.connectionCount) connections")
    }
}
