import Foundation
import Testing

@testable import FunctionalNetworking

/// One reading of a streamed body: its bytes in order, a chunk at a time; a file that fails
/// named in the failure; ending it closes its file; the sender's wait for a failure.
@Suite("Body reading")
struct BodyReadingTests {
    /// Everything `reading` gives, read `size` bytes at a time, and how it ended.
    static func readAll(_ reading: BodyReading, size: Int = 65_536) -> (Data, BodyReading.Chunk) {
        var data = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let chunk = reading.read(into: buffer)
            guard case .bytes(let count) = chunk else { return (data, chunk) }
            data.append(contentsOf: buffer.prefix(count))
        }
    }

    @Test func segmentsArriveInOrderWhateverTheChunkSize() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 100_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let segments: [BodySegment] = [.bytes(Data("head".utf8)), .file(file), .bytes(Data()), .bytes(Data("tail".utf8))]
        let expected = Data("head".utf8) + (try Data(contentsOf: file)) + Data("tail".utf8)
        for size in [1, 7, 4_096, 65_536, 1_000_000] {
            let reading = BodyReading(segments: segments)
            let (data, ending) = Self.readAll(reading, size: size)
            #expect(data == expected, "read \(size) bytes at a time")
            #expect(ending == .end && reading.isOver && reading.failure == nil)
            #expect(openDescriptors(of: file) ?? 0 == 0)
        }
    }

    @Test func aFileGoneBeforeTheReadingReachesItFailsNamingIt() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 10)
        let reading = BodyReading(segments: [.bytes(Data("before".utf8)), .file(file)])
        try FileManager.default.removeItem(at: file)
        let (data, ending) = Self.readAll(reading)
        let expected = BodyError.unreadableFile(file.path, reason: "it does not exist or cannot be read")
        #expect(data == Data("before".utf8))
        #expect(ending == .failed(expected))
        #expect(reading.failure == expected && reading.isOver)
        #expect(Self.readAll(reading).1 == .failed(expected))
    }

    @Test func endingStopsTheReadingAndClosesItsFile() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 100_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let reading = BodyReading(segments: [.file(file)])
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1_000, alignment: 1)
        defer { buffer.deallocate() }
        #expect(reading.read(into: buffer) == .bytes(1_000))
        #expect(openDescriptors(of: file) ?? 1 == 1)
        reading.end()
        #expect(openDescriptors(of: file) ?? 0 == 0)
        #expect(reading.read(into: buffer) == .ended)
        #expect(reading.isOver && reading.failure == nil)
    }

    @Test func endingAReadingReadWholeChangesNothing() {
        let reading = BodyReading(segments: [.bytes(Data("x".utf8))])
        _ = Self.readAll(reading)
        reading.end()
        #expect(Self.readAll(reading).1 == .end)
    }

    @Test func theSenderHearsOfAFailureAsItHappens() async throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 10)
        let reading = BodyReading(segments: [.file(file)])
        try FileManager.default.removeItem(at: file)
        let waiting = Task { try await reading.failure() }
        try await Task.sleep(for: .milliseconds(20))
        _ = Self.readAll(reading)
        let outcome = await Self.result(of: waiting)
        #expect(outcome as? BodyError == .unreadableFile(file.path, reason: "it does not exist or cannot be read"))
    }

    @Test func theSendersWaitEndsWithoutErrorWhenTheBodyIsReadWholeOrEnded() async throws {
        let whole = BodyReading(segments: [.bytes(Data("x".utf8))])
        let waitingForWhole = Task { try await whole.failure() }
        _ = Self.readAll(whole)
        #expect(await Self.result(of: waitingForWhole) == nil)

        let ended = BodyReading(segments: [.bytes(Data("x".utf8))])
        let waitingForEnded = Task { try await ended.failure() }
        ended.end()
        #expect(await Self.result(of: waitingForEnded) == nil)
        #expect(await Self.result(of: Task { try await ended.failure() }) == nil)
    }

    @Test func theSendersWaitEndsWhenItsTaskIsCancelled() async throws {
        let reading = BodyReading(segments: [.bytes(Data("x".utf8))])
        let waiting = Task { try await reading.failure() }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        #expect(await Self.result(of: waiting) == nil)
        #expect(!reading.isOver)
    }

    /// The error `task` ended with, or `nil`; fails the test when it takes more than 10 s.
    static func result(of task: Task<Void, any Error>) async -> (any Error)? {
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            task.cancel()
            Issue.record("The wait did not end within 10 s")
        }
        defer { timeout.cancel() }
        do {
            try await task.value
            return nil
        } catch {
            return error
        }
    }
}
