import Foundation
import FunctionalNetworking
import Testing

@Suite("MultipartFormData description")
struct MultipartFormDataDescriptionTests {
    @Test func showsTextFieldsFilesAndSizesAndHidesSecretNamedFields() {
        var form = MultipartFormData()
        form.append("Ada", named: "name")
        form.append("s3cr3t", named: "password")
        form.append(Data(count: 2048), named: "photo", filename: "me.jpg", contentType: "image/jpeg")
        form.appendFile(at: URL(fileURLWithPath: "/tmp/report.pdf"), named: "report", filename: "report.pdf")
        #expect(
            form.description
                == "[name: Ada, password: <redacted>, photo: file me.jpg (image/jpeg, 2048 bytes), "
                + "report: file report.pdf (application/octet-stream, the file /tmp/report.pdf)]"
        )
        #expect(String(reflecting: form).hasPrefix("MultipartFormData([name: Ada"))
    }

    @Test func aPartsContentShowsItsSizeOrItsPathNeverItsBytes() {
        #expect(MultipartFormData.Part.Content.data(Data("s3cr3t".utf8)).description == "6 bytes")
        #expect(String(reflecting: MultipartFormData.Part.Content.file(URL(fileURLWithPath: "/tmp/a"))) == ".file(/tmp/a)")
    }
}
