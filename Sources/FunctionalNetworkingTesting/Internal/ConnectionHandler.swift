import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves the requests of one connection, in order, until it closes.
struct ConnectionHandler {
    let core: ServerCore
    let io: ConnectionIO
    /// The connection's accept index (``LoopbackServer/RecordedRequest/connectionIndex``).
    let index: Int

    /// What to do with the connection after a response.
    private enum Disposition {
        case keepOpen
        case closeGracefully
        case closeNow
    }

    /// Runs on the connection's own thread; returns when the connection is done.
    func run() {
        defer { io.close() }
        if core.takeQueuedCloseAtStart() { return }
        var served = 0
        while true {
            if served > 0 {
                // Only a request that has begun to arrive may take a `closeAtStart`
                // meant for it; an idle kept-alive connection must not steal it.
                do { try io.waitForData() } catch { return }
                if core.takeQueuedCloseAtStart() { return }
            }
            let head: RequestHead
            let body: ReceivedBody
            do throws(ConnectionError) {
                head = try io.readHead()
                let keeping = core.bodyRecording == .keep
                if keeping, case .contentLength(let length) = head.framing, length > HTTPParser.maxBodySize {
                    // Refused before any `100 Continue`, so a waiting client sends nothing.
                    throw ConnectionError.malformed(.bodyTooLarge)
                }
                if head.expectsContinue, head.version == "HTTP/1.1" {
                    try io.write(ResponseSerializer.continueHead)
                }
                body = try io.readBody(head.framing, keeping: keeping)
            } catch let .malformed(error) {
                answerMalformed(error)
                return
            } catch {
                return
            }
            let request = core.record(head, body: body, connectionIndex: index, onConnection: served)
            served += 1
            let disposition = serve(request, head: head)
            core.finishRequest()
            switch disposition {
            case .keepOpen: continue
            case .closeGracefully: io.closeGracefully()
            case .closeNow: break
            }
            return
        }
    }

    /// Produces and sends the response for `request`, honouring its knobs and fault.
    private func serve(_ request: LoopbackServer.RecordedRequest, head: RequestHead) -> Disposition {
        var response = core.response(for: request)
        guard core.wake.sleep(for: response.delay) else { return .closeNow }
        let sendsBody = ResponseSerializer.sendsBody(status: response.status, method: request.method)
        if !sendsBody { response.streamParts = nil }
        let body = sendsBody ? [UInt8](response.body) : []
        switch response.fault {
        case .closeAtStart, .closeAfterRequest:
            return .closeNow
        case .stall:
            _ = core.wake.wait(for: nil, events: 0, timeout: nil)
            return .closeNow
        case .closeMidBody:
            let head = ResponseSerializer.head(for: response, keepAlive: true, announceKeepAlive: false)
            try? io.write(head + body.prefix(body.count / 2))
            return .closeNow
        case .none:
            let closeRequested = response.headers.values(named: "Connection")
                .flatMap(HTTPParser.commaSeparatedTokens)
                .contains { $0.caseInsensitiveEquals("close") }
            let keepAlive = head.wantsKeepAlive && !closeRequested
            let responseHead = ResponseSerializer.head(
                for: response, keepAlive: keepAlive, announceKeepAlive: keepAlive && head.version == "HTTP/1.0"
            )
            do {
                if let parts = response.streamParts {
                    guard try writeStream(head: responseHead, parts: parts) else { return .closeNow }
                } else if response.repetition != .once, sendsBody {
                    try writeRepeated(head: responseHead, body: body, repetition: response.repetition, pause: response.throttle?.period)
                    return .closeGracefully
                } else if let throttle = response.throttle, !body.isEmpty {
                    try writeThrottled(head: responseHead, body: body, throttle: throttle)
                } else {
                    try io.write(responseHead + body)  // One buffer, one send: no Nagle stall.
                }
            } catch {
                return .closeNow
            }
            return keepAlive ? .keepOpen : .closeGracefully
        }
    }

    /// Writes the head with the first slice, then each further slice after a pause.
    private func writeThrottled(head: [UInt8], body: [UInt8], throttle: LoopbackServer.Throttle) throws(ConnectionError) {
        let sliceSize = max(1, throttle.bytesPerPeriod)
        var offset = min(sliceSize, body.count)
        try io.write(head + body[0..<offset])
        while offset < body.count {
            guard core.wake.sleep(for: throttle.period) else { throw .stopped }
            let end = min(offset + sliceSize, body.count)
            try io.write(Array(body[offset..<end]))
            offset = end
        }
    }

    /// Writes the head, then the body as many times as `repetition` says (as chunks, forever,
    /// for ``LoopbackServer/Repetition/forever``), until the client or the server stops it.
    private func writeRepeated(
        head: [UInt8], body: [UInt8], repetition: LoopbackServer.Repetition, pause: Duration?
    ) throws(ConnectionError) {
        try io.write(head)
        switch repetition {
        case .once:
            try io.write(body)
        case .times(let count):
            for _ in 0..<max(0, count) {
                guard !core.wake.isSignalled else { throw .stopped }
                if let pause { guard core.wake.sleep(for: pause) else { throw .stopped } }
                try io.write(body)
            }
        case .forever:
            guard !body.isEmpty else { return try io.write(Array("0\r\n\r\n".utf8)) }
            let chunk = Array((String(body.count, radix: 16) + "\r\n").utf8) + body + Array("\r\n".utf8)
            while !core.wake.isSignalled {
                if let pause { guard core.wake.sleep(for: pause) else { throw .stopped } }
                try io.write(chunk)
            }
            throw .stopped
        }
    }

    /// Writes the head, then each part as one chunk with the pauses between, then the
    /// terminating chunk. Returns `false` when a part cut the connection short.
    private func writeStream(head: [UInt8], parts: [LoopbackServer.StreamPart]) throws(ConnectionError) -> Bool {
        var pending = head  // The head goes out with the first chunk, in one send.
        func chunk(_ bytes: Data) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            return Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + Array("\r\n".utf8)
        }
        for part in parts {
            switch part {
            case .bytes(let bytes):
                try io.write(pending + chunk(bytes))
                pending = []
            case .pause(let duration):
                if !pending.isEmpty { try io.write(pending) }
                pending = []
                guard core.wake.sleep(for: duration) else { throw .stopped }
            case .cutAfter(let bytes):
                let last = pending + chunk(bytes)
                if !last.isEmpty { try io.write(last) }
                return false
            case .repeating(let bytes, let interval):
                let repeated = chunk(bytes)
                try io.write(pending + repeated)
                pending = []
                guard !repeated.isEmpty else { break }
                while !core.wake.isSignalled {
                    guard core.wake.sleep(for: interval) else { throw .stopped }
                    try io.write(repeated)
                }
                throw .stopped
            }
        }
        try io.write(pending + Array("0\r\n\r\n".utf8))
        return true
    }

    /// Answers a request that could not be read, then closes.
    private func answerMalformed(_ error: HTTPParseError) {
        let response = ResponseSerializer.errorResponse(for: error)
        let head = ResponseSerializer.head(for: response, keepAlive: false, announceKeepAlive: false)
        guard (try? io.write(head + [UInt8](response.body))) != nil else { return }
        io.closeGracefully()
    }
}
