import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoopbackServerPacingTests {
    @Test func delaysTheResponseByTheConfiguredDuration() async throws {
        try await HTTPClient.withServer { server, session in
            server.enqueue(.text("late").delayed(by: .milliseconds(300)))
            let clock = ContinuousClock()

            let start = clock.now
            let result = try await HTTPClient.get(server.url(for: "/"), with: session)
            let elapsed = clock.now - start

            #expect(result.body.text == "late")
            #expect(elapsed >= .milliseconds(300))
            #expect(elapsed < .seconds(120))  // bounded; not a performance claim
        }
    }

    @Test func delayedResponseCountsAsInFlightWhileWaiting() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("late").delayed(by: .seconds(120)))  // stop() cuts it short
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        let inFlightDuringDelay = server.inFlightRequestCount
        server.stop()

        #expect(inFlightDuringDelay == 1)
        #expect(server.inFlightRequestCount == 0)
        #expect(server.peakConcurrentRequests == 1)
    }

    @Test func throttledBodyArrivesCompleteAndPaced() async throws {
        try await HTTPClient.withServer { server, session in
            let payload = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
            server.enqueue(
                LoopbackServer.Response(body: payload).throttled(bytesPerPeriod: 1_000, period: .milliseconds(20))
            )
            let clock = ContinuousClock()

            let start = clock.now
            let result = try await HTTPClient.get(server.url(for: "/"), with: session)
            let elapsed = clock.now - start

            #expect(result.body == payload)
            #expect(elapsed >= .milliseconds(180))  // Nine pauses between ten slices.
            #expect(elapsed < .seconds(120))  // bounded; not a performance claim
        }
    }

    @Test func stoppingTheServerCutsADelayShort() async throws {
        let server = try LoopbackServer()
        server.enqueue(.text("never").delayed(by: .seconds(30)))
        let connection = try RawConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try #require(await server.takeRequest(timeout: .seconds(30)))
        let clock = ContinuousClock()

        let start = clock.now
        server.stop()

        #expect(clock.now - start < .seconds(120))  // bounded; not a performance claim
        #expect(connection.isClosedByPeer(within: .seconds(30)))
    }
}
