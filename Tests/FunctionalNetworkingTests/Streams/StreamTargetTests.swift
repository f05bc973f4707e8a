import Foundation
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts the cancellations a channel asks of its transfer.
private final class Cancellations: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    var controls: StreamChannel.Controls { StreamChannel.Controls(cancel: { self.lock.withLock { self.count += 1 } }) }
}

private func response(_ path: String) throws -> HTTPURLResponse {
    try #require(
        HTTPURLResponse(url: URL(string: "https://shop.test\(path)")!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]))
}

private let noIdleLimit = StreamLimits(idleTimeout: nil)

@Suite("StreamTarget: where a streamed call's body goes")
struct StreamTargetTests {
    @Test("The target keeps the call's limits")
    func limits() {
        let limits = StreamLimits(idleTimeout: .seconds(5), maximumSize: 100, maximumLineLength: 10)
        #expect(StreamTarget(limits: limits).limits == limits)
    }

    @Test("Nothing is attached at first")
    func emptyAtFirst() throws {
        #expect(StreamTarget(limits: noIdleLimit).channel(for: try response("/a")) == nil)
    }

    @Test("channel(for:) finds the channel by the response's identity, not by an equal response")
    func byIdentity() throws {
        let target = StreamTarget(limits: noIdleLimit)
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        let head = try response("/a")
        let lookalike = try response("/a")

        target.attach(channel, for: head)

        #expect(target.channel(for: head) === channel)
        #expect(target.channel(for: lookalike) == nil)
    }

    @Test("Attaching a channel for a later attempt cancels the earlier one, which nobody will read")
    func attachCancelsEarlier() async throws {
        let target = StreamTarget(limits: noIdleLimit)
        let first = Cancellations()
        let second = Cancellations()
        let earlier = StreamChannel(limits: noIdleLimit, url: "u", controls: first.controls)
        let later = StreamChannel(limits: noIdleLimit, url: "u", controls: second.controls)
        let earlierHead = try response("/attempt/1")
        let laterHead = try response("/attempt/2")

        target.attach(earlier, for: earlierHead)
        target.attach(later, for: laterHead)

        #expect(first.value == 1)
        #expect(earlier.hasEnded)
        await #expect(throws: CancellationError.self) { try await earlier.next() }
        #expect(second.value == 0)
        #expect(!later.hasEnded)
        #expect(target.channel(for: earlierHead) == nil)
        #expect(target.channel(for: laterHead) === later)
    }

    @Test("cancel() cancels the attached channel and forgets it; again, it does nothing")
    func cancel() async throws {
        let target = StreamTarget(limits: noIdleLimit)
        let cancellations = Cancellations()
        let channel = StreamChannel(limits: noIdleLimit, url: "u", controls: cancellations.controls)
        let head = try response("/a")
        target.attach(channel, for: head)

        target.cancel()
        target.cancel()

        #expect(cancellations.value == 1)
        #expect(channel.hasEnded)
        #expect(target.channel(for: head) == nil)
        await #expect(throws: CancellationError.self) { try await channel.next() }
    }

    @Test("cancel() with nothing attached does nothing")
    func cancelEmpty() {
        StreamTarget(limits: noIdleLimit).cancel()
    }
}
