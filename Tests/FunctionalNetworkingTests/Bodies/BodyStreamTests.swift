import Foundation
import Testing

@testable import FunctionalNetworking

/// The synchronous body stream: read as Linux's URLSession reads it, and every method NSStream.h
/// asks of an `NSInputStream` subclass (its delegate, properties and run loops) as documented.
@Suite("Body stream")
struct BodyStreamTests {
    /// A delegate that records what it is told and reads the stream as a run-loop consumer does.
    final class Consumer: NSObject, StreamDelegate {
        var events: [Stream.Event] = []
        var bytes = Data()
        var isDone = false

        func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
            events.append(eventCode)
            switch eventCode {
            case .hasBytesAvailable:
                guard let input = aStream as? InputStream else { return }
                var buffer = [UInt8](repeating: 0, count: 10_000)
                let count = input.read(&buffer, maxLength: buffer.count)
                if count > 0 { bytes.append(contentsOf: buffer.prefix(count)) }
            case .endEncountered, .errorOccurred:
                isDone = true
            default:
                break
            }
        }
    }

    static func stream(_ segments: [BodySegment]) -> BodyStream {
        BodyStream(reading: BodyReading(segments: segments))
    }

    @Test func itIsReadWholeAsLinuxURLSessionReadsIt() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 300_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let stream = Self.stream([.bytes(Data("--head\r\n".utf8)), .file(file), .bytes(Data("\r\n--end--".utf8))])
        #expect(stream.streamStatus == .notOpen && !stream.hasBytesAvailable)
        // As swift-corelibs-foundation's _BodyStreamSource: open, then read while it says there are bytes.
        stream.open()
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            try #require(count >= 0)
            body.append(contentsOf: buffer.prefix(count))
        }
        #expect(body == Data("--head\r\n".utf8) + (try Data(contentsOf: file)) + Data("\r\n--end--".utf8))
        #expect(stream.streamStatus == .atEnd && stream.streamError == nil)
        #expect(stream.read(&buffer, maxLength: buffer.count) == 0)
        #expect(openDescriptors(of: file) ?? 0 == 0)
    }

    @Test func itIsItsOwnDelegateUntilOneIsSetAndAgainWhenItIsSetToNil() {
        let stream = Self.stream([])
        #expect(stream.delegate === stream)
        let consumer = Consumer()
        stream.delegate = consumer
        #expect(stream.delegate === consumer)
        stream.delegate = nil
        #expect(stream.delegate === stream)
    }

    @Test func itHoldsItsDelegateWeakly() {
        let stream = Self.stream([])
        var consumer: Consumer? = Consumer()
        weak let gone = consumer
        stream.delegate = consumer
        consumer = nil
        #expect(gone == nil)
        #expect(stream.delegate === stream)
    }

    @Test func itHasNoPropertiesAndTakesNone() {
        let stream = Self.stream([.bytes(Data("x".utf8))])
        #expect(stream.property(forKey: .fileCurrentOffsetKey) == nil)
        #expect(!stream.setProperty(NSNumber(value: 1), forKey: .fileCurrentOffsetKey))
        #expect(!stream.setProperty(nil, forKey: .fileCurrentOffsetKey))
        #expect(stream.property(forKey: .fileCurrentOffsetKey) == nil)
    }

    @Test func schedulingAndRemovingInAnyOrderIsHarmless() {
        let stream = Self.stream([.bytes(Data("x".utf8))])
        stream.remove(from: .current, forMode: .default)
        stream.schedule(in: .current, forMode: .default)
        stream.schedule(in: .current, forMode: .default)
        stream.schedule(in: .current, forMode: .common)
        stream.remove(from: .current, forMode: .default)
        stream.remove(from: .current, forMode: .common)
        stream.remove(from: .current, forMode: .common)
        stream.open()
        var byte: UInt8 = 0
        #expect(stream.read(&byte, maxLength: 1) == 1 && byte == UInt8(ascii: "x"))
    }

    @Test func aRunLoopConsumerIsToldOfEveryStepAndReadsTheWholeBody() async throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 200_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let expected = Data("a".utf8) + (try Data(contentsOf: file))
        let outcome = Collected<(events: [Stream.Event], bytes: Data, done: Bool)>()
        // On a thread of its own, as a run-loop consumer runs: scheduled, opened, then read
        // from its delegate as the events come.
        Thread {
            let stream = Self.stream([.bytes(Data("a".utf8)), .file(file)])
            let consumer = Consumer()
            stream.delegate = consumer
            stream.schedule(in: .current, forMode: .default)
            stream.open()
            let deadline = Date(timeIntervalSinceNow: 10)
            while !consumer.isDone, Date() < deadline {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            stream.remove(from: .current, forMode: .default)
            stream.close()
            outcome.append((consumer.events, consumer.bytes, consumer.isDone))
        }.start()
        try await waitUntil(within: .seconds(15), "the consumer's thread is done") { !outcome.values.isEmpty }
        let seen = try #require(outcome.values.first)
        #expect(seen.done)
        #expect(seen.bytes == expected)
        #expect(seen.events.first == .openCompleted)
        #expect(seen.events.dropFirst().first == .hasBytesAvailable)
        #expect(seen.events.last == .endEncountered)
        #expect(openDescriptors(of: file) ?? 0 == 0)
    }

    @Test func aFileGoneWhileTheStreamIsReadFailsItWithTheFilesName() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 10)
        let stream = Self.stream([.bytes(Data("x".utf8)), .file(file)])
        try FileManager.default.removeItem(at: file)
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 100)
        #expect(stream.read(&buffer, maxLength: 100) == 1)
        #expect(stream.read(&buffer, maxLength: 100) == -1)
        #expect(stream.streamStatus == .error && !stream.hasBytesAvailable)
        #expect(stream.streamError as? BodyError == .unreadableFile(file.path, reason: "it does not exist or cannot be read"))
        #expect(stream.reading.failure != nil)
    }

    @Test func closingClosesTheFileBeingReadAndLaterReadsFail() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 100_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let stream = Self.stream([.file(file)])
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 1_000)
        #expect(stream.read(&buffer, maxLength: buffer.count) == 1_000)
        #expect(openDescriptors(of: file) ?? 1 == 1)
        stream.close()
        #expect(openDescriptors(of: file) ?? 0 == 0)
        #expect(stream.streamStatus == .closed && !stream.hasBytesAvailable)
        #expect(stream.read(&buffer, maxLength: buffer.count) == -1)
    }

    @Test func aReadAfterTheSenderEndedTheReadingFailsRatherThanEndingTheBody() throws {
        let stream = Self.stream([.bytes(Data(count: 10)), .bytes(Data(count: 10))])
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 10)
        #expect(stream.read(&buffer, maxLength: 10) == 10)
        stream.reading.end()
        #expect(stream.read(&buffer, maxLength: 10) == -1)
        #expect(stream.streamStatus == .error && stream.streamError is CancellationError)
    }

    @Test func itDoesNotLendItsBuffer() {
        let stream = Self.stream([.bytes(Data("x".utf8))])
        stream.open()
        var pointer: UnsafeMutablePointer<UInt8>?
        var length = 0
        #expect(!stream.getBuffer(&pointer, length: &length))
    }
}
