import Foundation
import FunctionalNetworking
import Testing

@Suite("StreamLimits: the limits of one streamed call")
struct StreamLimitsTests {
    @Test("By default a stream may be silent for 60 s, has no total limit and holds 1 MiB a line")
    func defaults() {
        let limits = StreamLimits()
        #expect(limits.idleTimeout == .seconds(60))
        #expect(limits.maximumSize == nil)
        #expect(limits.maximumLineLength == 1 << 20)
        #expect(StreamLimits.default == limits)
    }

    @Test("Every limit is kept as given; nil turns the idle limit off")
    func keptAsGiven() {
        let limits = StreamLimits(idleTimeout: nil, maximumSize: 100 << 20, maximumLineLength: 4_096)
        #expect(limits.idleTimeout == nil)
        #expect(limits.maximumSize == 100 << 20)
        #expect(limits.maximumLineLength == 4_096)
        #expect(StreamLimits(idleTimeout: .milliseconds(250)).idleTimeout == .milliseconds(250))
    }

    @Test("A line limit below 1 becomes 1", arguments: [0, -1, Int.min])
    func lineLimitClamped(to given: Int) {
        #expect(StreamLimits(maximumLineLength: given).maximumLineLength == 1)
    }

    @Test("A line limit of 1 holds a one-byte line and fails on two")
    func lineLimitOfOne() async throws {
        let limits = StreamLimits(maximumLineLength: 0)
        var lines: [String] = []
        for try await line in ResponseBody(Data("a\nb\n".utf8), limits: limits).lines {
            lines.append(line)
        }
        #expect(lines == ["a", "b"])
        await #expect(throws: StreamError.lineTooLong(limit: 1)) {
            for try await _ in ResponseBody(Data("ab\n".utf8), limits: limits).lines {}
        }
    }
}
