import Foundation
import FunctionalNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("MultipartFormData")
struct MultipartFormDataTests {
    @Test func aFieldAndAFileAreWrittenAsRFC7578Says() throws {
        var form = MultipartFormData()
        form.append("Ada", named: "name")
        form.append(Data("x,y\n1,2\n".utf8), named: "table", filename: "t.csv", contentType: "text/csv")
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        let b = form.boundary
        #expect(
            text == """
                --\(b)\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n\
                --\(b)\r\nContent-Disposition: form-data; name="table"; filename="t.csv"\r\nContent-Type: text/csv\r\n\r\nx,y\n1,2\n\r\n\
                --\(b)--\r\n
                """)
        #expect(form.contentType == "multipart/form-data; boundary=\(b)")
    }

    @Test func namesEscapeQuotesAndLineBreaksAndKeepUnicode() throws {
        var form = MultipartFormData()
        form.append(Data("1".utf8), named: "a\"b\r\nc", filename: "résumé \"final\".pdf")
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        #expect(text.contains(#"name="a%22b%0D%0Ac"; filename="résumé %22final%22.pdf""#))
        #expect(text.contains("Content-Type: application/octet-stream\r\n"))
    }

    @Test func eachFormHasItsOwnRandomBoundary() {
        let boundaries = Set((0..<100).map { _ in MultipartFormData().boundary })
        #expect(boundaries.count == 100)
        #expect(boundaries.allSatisfy { $0.count == "FunctionalNetworking-".count + 32 })
    }

    @Test func aMissingFileIsAClearErrorNamingIt() {
        var form = MultipartFormData()
        form.appendFile(at: URL(fileURLWithPath: "/nonexistent/photo.jpg"), named: "photo")
        #expect(throws: BodyError.unreadableFile("/nonexistent/photo.jpg", reason: "it does not exist or cannot be read")) {
            try form.encoded()
        }
        let words = String(describing: BodyError.unreadableFile("/p", reason: "it is not a regular file"))
        #expect(words == "The file /p cannot be sent as part of the request body: it is not a regular file.")
    }

    @Test func aDirectoryIsNotAFile() {
        var form = MultipartFormData()
        form.appendFile(at: FileManager.default.temporaryDirectory, named: "dir")
        #expect(throws: BodyError.self) { try form.encoded() }
    }
}
