import Foundation
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("RequestKey")
struct RequestKeyTests {
    let carriers = CredentialCarriers(redaction: .default, cookieStorage: nil)

    func request(_ method: String? = nil, headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://shop.test/products/7")!)
        request.httpMethod = method
        request.allHTTPHeaderFields = headers
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    func key(_ request: URLRequest, _ selection: HeaderSelection = .all) -> RequestKey? {
        RequestKey(request, headers: selection, credentials: carriers)
    }

    @Test func equalRequestsHaveEqualKeysAndHashesWhateverTheCaseOfNamesAndMethods() {
        let first = key(request("get", headers: ["Accept": "application/json"]))
        let second = key(request("GET", headers: ["accept": "application/json"]))
        #expect(first == second)
        #expect(first?.hashValue == second?.hashValue)
        #expect(key(request(nil)) == key(request("GET")))  // no method is GET, as URLSession sends it
    }

    @Test func methodHeadersBodyAndCredentialsEachMakeKeysDifferent() {
        let base = key(request("GET", headers: ["Accept": "a"]))
        #expect(base != key(request("HEAD", headers: ["Accept": "a"])))
        #expect(base != key(request("GET", headers: ["Accept": "b"])))
        #expect(key(request("POST", body: "a")) != key(request("POST", body: "b")))
        #expect(key(request(headers: ["Authorization": "Bearer A"])) != key(request(headers: ["Authorization": "Bearer B"])))
        #expect(key(request(headers: ["Authorization": "Bearer A"])) != key(request()))
    }

    @Test func credentialsCountEvenWhenTheSelectionLeavesTheirHeadersOut() {
        let selection = HeaderSelection.only(["Accept"])
        let alice = key(request(headers: ["Accept": "a", "Authorization": "Bearer alice"]), selection)
        let bob = key(request(headers: ["Accept": "a", "Authorization": "Bearer bob"]), selection)
        #expect(alice != bob)
        #expect(alice?.headers == ["accept": "a"])  // the credential is in the identity, not the headers
    }

    @Test func aRequestWithABodyStreamHasNoKey() {
        var streamed = request("POST")
        streamed.httpBodyStream = InputStream(data: Data("a".utf8))
        #expect(key(streamed) == nil)
    }

    @Test func anIdentityDoesNotDependOnTheOrderItsCredentialsWereFound() {
        let digests = ["a", "b", "c"].map { CredentialDigest(name: "authorization", value: $0) }
        var forward = CredentialIdentity()
        digests.forEach { forward.insert($0) }
        var backward = CredentialIdentity()
        digests.reversed().forEach { backward.insert($0) }
        #expect(forward == backward)
        #expect(digests.allSatisfy(forward.contains))
        #expect(!forward.contains(CredentialDigest(name: "authorization", value: "d")))
        #expect(CredentialIdentity() != forward)
    }

    @Test func theCookiesFoundAboveAreReusedBelowOnlyForTheSameStorageAndURL() async throws {
        let storage = HTTPCookieStorage.shared
        let carriers = CredentialCarriers(redaction: .default, cookieStorage: storage)
        let here = request()
        var elsewhere = here
        elsewhere.url = URL(string: "https://other.test/")
        let remembering = RequestContext.current.remembering("session=remembered", of: carriers, for: here)
        RequestContext.$current.withValue(remembering) {
            #expect(carriers.storedCookies(for: here) == "session=remembered")
            #expect(carriers.storedCookies(for: elsewhere) != "session=remembered")
            let otherStorage = CredentialCarriers(redaction: .default, cookieStorage: URLSessionConfiguration.ephemeral.httpCookieStorage)
            #expect(otherStorage.storedCookies(for: here) != "session=remembered")
        }
        #expect(carriers.storedCookies(for: here) != "session=remembered")
    }
}
