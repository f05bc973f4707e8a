import Foundation
import Testing

@testable import FunctionalNetworking

/// How the package knows a request's body stream again: a stream it made carries its body (a
/// ``BodyStream``) or is found in the table of bound-pair inputs, which forgets gone streams.
@Suite("Streamed body streams")
struct StreamedBodyStreamTests {
    @Test func aStreamThePackageMadeIsKnownAsItsBodysAndNoOtherIs() throws {
        let file = try URLRequestBodyTests.temporaryFile(count: 10)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.appendFile(at: file, named: "f")
        for body in [StreamedBody.multipart(form), .file(file)] {
            let (stream, _) = body.makeStream()
            #expect(StreamedBody.of(stream) == body)
            #expect(StreamedBody.of(stream)?.form == (body == .multipart(form) ? form : nil))
        }
        #expect(StreamedBody.of(InputStream(data: Data("x".utf8))) == nil)
        #expect(StreamedBody.of(nil) == nil)
    }

    @Test func theTableKnowsAnInputByIdentityWithItsBody() {
        let table = StreamedBodyStreams()
        let input = InputStream(data: Data())
        let body = StreamedBody.file(URL(fileURLWithPath: "/tmp/a"))
        table.add(input, of: body, keeping: nil)
        #expect(table.body(of: input) == body)
        #expect(table.body(of: InputStream(data: Data())) == nil)
    }

    @Test func theTableForgetsGoneInputsAndKeepsLiveOnes() {
        let table = StreamedBodyStreams()
        let live = InputStream(data: Data())
        let body = StreamedBody.file(URL(fileURLWithPath: "/tmp/a"))
        table.add(live, of: body, keeping: nil)
        for _ in 0..<200 {
            table.add(InputStream(data: Data()), of: body, keeping: nil)
        }
        // Swept whenever the entries reach 64 or twice the live ones: never more than that.
        #expect(table.count <= 64)
        #expect(table.body(of: live) == body)
    }
}
