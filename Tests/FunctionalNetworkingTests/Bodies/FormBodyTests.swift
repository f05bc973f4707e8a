import Foundation
import FunctionalNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("FormBody")
struct FormBodyTests {
    @Test func fieldsAreEncodedAsTheURLStandardSaysInOrder() {
        let body: FormBody = ["grant_type": "password", "user name": "ada", "password": "s3cret & more=+/~é*-._"]
        #expect(
            String(decoding: body.encoded, as: UTF8.self)
                == "grant_type=password&user+name=ada&password=s3cret+%26+more%3D%2B%2F%7E%C3%A9*-._")
    }

    @Test func aNameMayRepeatAndAnEmptyFormIsEmpty() {
        let body = FormBody([.init("tag", "a"), .init("tag", "b"), .init("", "")])
        #expect(String(decoding: body.encoded, as: UTF8.self) == "tag=a&tag=b&=")
        #expect(FormBody([]).encoded.isEmpty)
    }

    @Test func settingItOnAnEndpointSetsTheContentType() throws {
        let request = try Endpoint(baseURL: URL(string: "http://127.0.0.1/token")!).with(body: ["a": "1"] as FormBody).urlRequest()
        #expect(request.httpBody == Data("a=1".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }
}
