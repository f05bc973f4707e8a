import Foundation
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Something a task holds while it lives: a task-local value, which a task made with `Task { }`
/// inherits and keeps until it ends. Freed, it shows that the task has ended.
private final class TaskProbe: Sendable {}

private enum Probed {
    @TaskLocal static var probe: TaskProbe?
}

/// What a channel's controls were asked to do.
private final class ControlCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func note(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
    func count(_ name: String) -> Int { lock.withLock { counts[name] ?? 0 } }

    /// Controls that count their calls, with pause and resume when `pausable`.
    func controls(pausable: Bool) -> StreamChannel.Controls {
        var controls = StreamChannel.Controls(cancel: { self.note("cancel") })
        if pausable {
            controls.pause = { self.note("pause") }
            controls.resume = { self.note("resume") }
        }
        return controls
    }
}

/// The ends a channel's observers saw, with the bytes and the error.
private final class Ends: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [(bytes: Int, error: (any Error)?)] = []

    func observe(_ bytes: Int, _ error: (any Error)?) { lock.withLock { seen.append((bytes, error)) } }
    var all: [(bytes: Int, error: (any Error)?)] { lock.withLock { seen } }
}

private func chunk(_ byte: UInt8, count: Int) -> Data {
    Data(repeating: byte, count: count)
}

private let noIdleLimit = StreamLimits(idleTimeout: nil)

@Suite("StreamChannel: a streamed body on its way to its one reader")
struct StreamChannelTests {
    // MARK: - Pausing, where a transfer can be paused

    @Test("A pausable transfer is paused once at 1 MiB waiting and resumed once the reader brings it down to 256 KiB")
    func pauseAndResumeOnce() async throws {
        let calls = ControlCalls()
        let channel = StreamChannel(limits: noIdleLimit, url: "u", controls: calls.controls(pausable: true))

        for index in 0..<3 { channel.deliver(chunk(UInt8(index), count: 256 << 10)) }
        #expect(calls.count("pause") == 0)
        channel.deliver(chunk(3, count: 256 << 10))  // 1 MiB waits: the high-water mark.
        #expect(calls.count("pause") == 1)
        channel.deliver(chunk(4, count: 256 << 10))  // Past it, while paused: no second pause.
        #expect(calls.count("pause") == 1)

        let first = try await channel.next()
        #expect(first?.count == 1 << 20)  // Four chunks taken as one; 256 KiB is left: the low-water mark.
        #expect(calls.count("resume") == 1)
        let second = try await channel.next()
        #expect(second == chunk(4, count: 256 << 10))
        #expect(calls.count("resume") == 1)
        #expect(calls.count("pause") == 1)
        #expect(calls.count("cancel") == 0)
    }

    @Test("After a resume, the next time 1 MiB waits pauses the transfer again")
    func pausesAgainAfterResume() async throws {
        let calls = ControlCalls()
        let channel = StreamChannel(limits: noIdleLimit, url: "u", controls: calls.controls(pausable: true))

        channel.deliver(chunk(1, count: 1 << 20))
        _ = try await channel.next()
        channel.deliver(chunk(2, count: 1 << 20))

        #expect(calls.count("pause") == 2)
        #expect(calls.count("resume") == 1)
    }

    // MARK: - Falling behind, where it cannot

    @Test("Where the transfer cannot pause, 32 MiB waiting is kept; a byte more drops it all, cancels, and fails with fellBehind")
    func fellBehindAtTheLimit() async throws {
        let calls = ControlCalls()
        let ends = Ends()
        let channel = StreamChannel(limits: noIdleLimit, url: "http://127.0.0.1/feed", controls: calls.controls(pausable: false))
        channel.whenEnded(ends.observe)

        for _ in 0..<32 { channel.deliver(Data(count: 1 << 20)) }
        #expect(!channel.hasEnded)
        #expect(calls.count("cancel") == 0)
        channel.deliver(Data(count: 1))

        #expect(channel.hasEnded)
        #expect(calls.count("cancel") == 1)
        let expected = StreamError.fellBehind(limit: 32 << 20, url: "http://127.0.0.1/feed")
        await #expect(throws: expected) { try await channel.next() }  // Nothing of what waited is read.
        #expect(ends.all.count == 1)
        #expect(ends.all.first?.bytes == (32 << 20) + 1)
        #expect(ends.all.first?.error as? StreamError == expected)
        channel.deliver(Data(count: 10))  // After the end, bytes are dropped.
        await #expect(throws: expected) { try await channel.next() }
        #expect(calls.count("cancel") == 1)
    }

    @Test("Past the total limit the stream fails with responseTooLarge after the bytes that were within it")
    func totalLimitKeepsWhatCameWithin() async throws {
        let calls = ControlCalls()
        let channel = StreamChannel(
            limits: StreamLimits(idleTimeout: nil, maximumSize: 10), url: "u", controls: calls.controls(pausable: false))

        channel.deliver(Data("abcdef".utf8))
        channel.deliver(Data("ghijk".utf8))

        #expect(calls.count("cancel") == 1)
        #expect(try await channel.next() == Data("abcdef".utf8))
        await #expect(throws: TransportError.responseTooLarge(limit: 10, url: "u")) { try await channel.next() }
    }

    // MARK: - Batching

    @Test("A reader that fell behind takes the waiting chunks as one, up to 1 MiB, in order")
    func batching() async throws {
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        let size = 100 << 10
        for index in 0..<15 { channel.deliver(chunk(UInt8(index), count: size)) }

        let first = try #require(try await channel.next())
        let second = try #require(try await channel.next())

        #expect(first.count == 10 * size)  // An eleventh would pass 1 MiB.
        #expect(first == (0..<10).reduce(into: Data()) { $0.append(chunk(UInt8($1), count: size)) })
        #expect(second == (10..<15).reduce(into: Data()) { $0.append(chunk(UInt8($1), count: size)) })
    }

    @Test("A chunk larger than 1 MiB is given whole, and nothing is merged onto it")
    func largeChunkAlone() async throws {
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        channel.deliver(chunk(1, count: 2 << 20))
        channel.deliver(chunk(2, count: 1))
        channel.finish()

        #expect(try await channel.next() == chunk(1, count: 2 << 20))
        #expect(try await channel.next() == chunk(2, count: 1))
        #expect(try await channel.next() == nil)
    }

    @Test("Batches keep the bytes in order across the buffer's compaction")
    func batchingAcrossCompaction() async throws {
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        var sent = Data()
        for index in 0..<300 {
            let piece = chunk(UInt8(index % 251), count: 10 << 10)
            sent.append(piece)
            channel.deliver(piece)
        }
        channel.finish()

        var sizes: [Int] = []
        var received = Data()
        while let next = try await channel.next() {
            sizes.append(next.count)
            received.append(next)
        }

        #expect(sizes == [102 * (10 << 10), 102 * (10 << 10), 96 * (10 << 10)])
        #expect(received == sent)
    }

    // MARK: - The end

    @Test("whenEnded runs once, with the bytes, at the end; registered after the end, at once")
    func whenEndedOnce() async throws {
        let ends = Ends()
        let late = Ends()
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        channel.whenEnded(ends.observe)

        channel.deliver(Data("abc".utf8))
        channel.deliver(Data("de".utf8))
        #expect(ends.all.isEmpty)
        channel.finish()
        channel.finish(throwing: URLError(.networkConnectionLost))
        channel.cancel()
        channel.whenEnded(late.observe)

        #expect(ends.all.count == 1)
        #expect(ends.all.first?.bytes == 5)
        #expect(ends.all.first?.error == nil)
        #expect(late.all.count == 1)
        #expect(late.all.first?.bytes == 5)
        #expect(late.all.first?.error == nil)
        #expect(try await channel.next() == Data("abcde".utf8))  // A finished stream's bytes are still read.
        #expect(try await channel.next() == nil)
    }

    @Test("whenEnded gets the error that ended the stream, after the reader has had the bytes before it")
    func whenEndedWithError() async throws {
        let ends = Ends()
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        channel.whenEnded(ends.observe)

        channel.deliver(Data("abc".utf8))
        channel.finish(throwing: URLError(.networkConnectionLost))

        #expect(ends.all.count == 1)
        #expect(ends.all.first?.bytes == 3)
        #expect((ends.all.first?.error as? URLError)?.code == .networkConnectionLost)
        #expect(try await channel.next() == Data("abc".utf8))
        await #expect(throws: URLError.self) { try await channel.next() }
    }

    @Test("Cancelling drops what waits, cancels the transfer once, and the reader and whenEnded get CancellationError")
    func cancelling() async throws {
        let calls = ControlCalls()
        let ends = Ends()
        let channel = StreamChannel(limits: noIdleLimit, url: "u", controls: calls.controls(pausable: false))
        channel.whenEnded(ends.observe)
        channel.deliver(Data("abc".utf8))

        channel.cancel()
        channel.cancel()

        #expect(calls.count("cancel") == 1)
        await #expect(throws: CancellationError.self) { try await channel.next() }
        #expect(ends.all.count == 1)
        #expect(ends.all.first?.error is CancellationError)
        #expect(ends.all.first?.bytes == 3)
    }

    @Test("Cancelling the reading task cancels the stream and its transfer")
    func cancellingTheReader() async throws {
        let calls = ControlCalls()
        let channel = StreamChannel(limits: noIdleLimit, url: "u", controls: calls.controls(pausable: false))
        let reading = Task { try await channel.next() }
        try await Task.sleep(for: .milliseconds(50))  // Most likely waiting by now; cancelled before, it ends the same way.

        reading.cancel()

        await #expect(throws: CancellationError.self) { try await reading.value }
        #expect(channel.hasEnded)
        #expect(calls.count("cancel") == 1)
    }

    @Test("A finished channel made from data gives it and ends; empty data gives no chunk")
    func finishedFromData() async throws {
        let channel = StreamChannel(finished: Data("abc".utf8), limits: StreamLimits(idleTimeout: .milliseconds(1)), url: "u")
        #expect(channel.limits.idleTimeout == .milliseconds(1))  // Kept, but nothing watches a finished body.
        #expect(try await channel.next() == Data("abc".utf8))
        #expect(try await channel.next() == nil)

        let empty = StreamChannel(finished: Data(), limits: .default, url: "u")
        #expect(try await empty.next() == nil)
    }

    @Test("The channel has one reader: the first claim wins")
    func claimedOnce() {
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        #expect(channel.claim())
        #expect(!channel.claim())
        #expect(!channel.claim())
    }

    // MARK: - Room for a producer

    @Test("A producer waits for room while 1 MiB waits, and goes on once the reader takes it or the stream ends")
    func waitForRoom() async throws {
        let channel = StreamChannel(limits: noIdleLimit, url: "u")
        await channel.waitForRoom()  // Empty: room at once.

        channel.deliver(Data(count: 1 << 20))
        let producer = Task { await channel.waitForRoom() }
        _ = try await channel.next()
        await producer.value

        channel.deliver(Data(count: 1 << 20))
        let another = Task { await channel.waitForRoom() }
        channel.cancel()
        await another.value
        #expect(channel.hasEnded)
    }

    // MARK: - The idle limit

    @Test("With no bytes for the idle limit the stream fails with idleTimeout, cancels its transfer, and its watchdog ends")
    func idleWatchdog() async throws {
        let calls = ControlCalls()
        let ends = Ends()
        weak var probe: TaskProbe?
        let channel = {
            let held = TaskProbe()
            probe = held
            return Probed.$probe.withValue(held) {
                StreamChannel(
                    limits: StreamLimits(idleTimeout: .milliseconds(100)), url: "http://127.0.0.1/feed",
                    controls: calls.controls(pausable: false))
            }
        }()
        channel.whenEnded(ends.observe)

        let expected = StreamError.idleTimeout(limit: .milliseconds(100), url: "http://127.0.0.1/feed")
        await #expect(throws: expected) { try await channel.next() }

        #expect(calls.count("cancel") == 1)
        #expect(ends.all.count == 1)
        #expect(ends.all.first?.error as? StreamError == expected)
        // The watchdog's task has ended, though the channel lives on.
        try await waitUntil(within: .seconds(10), "the watchdog's task has ended") { probe == nil }
        withExtendedLifetime(channel) {}
    }

    @Test("A stream that ends before its idle limit stops its watchdog at once, leaving no task")
    func watchdogStopsAtTheEnd() async throws {
        weak var probe: TaskProbe?
        let channel = {
            let held = TaskProbe()
            probe = held
            return Probed.$probe.withValue(held) { StreamChannel(limits: StreamLimits(idleTimeout: .seconds(3_600)), url: "u") }
        }()
        #expect(probe != nil)  // The watchdog sleeps, holding it.

        channel.finish()

        try await waitUntil(within: .seconds(10), "the watchdog's task has ended") { probe == nil }
        #expect(try await channel.next() == nil)
    }

    // MARK: - Cut short where it counts

    @Test("A reader whose task was cancelled gets CancellationError, and cancels the transfer, even when chunks wait")
    func cancelledReaderWithChunksWaiting() async throws {
        let calls = ControlCalls()
        let channel = StreamChannel(limits: noIdleLimit, url: "u", controls: calls.controls(pausable: false))
        for index in 0..<4 { channel.deliver(chunk(UInt8(index), count: 2 << 20)) }
        let gate = AsyncStream.makeStream(of: Void.self)
        let reading = Task {
            for await _ in gate.stream {}
            return try await channel.next()
        }

        reading.cancel()
        gate.continuation.finish()

        await #expect(throws: CancellationError.self) { try await reading.value }
        #expect(calls.count("cancel") == 1)
    }
}
