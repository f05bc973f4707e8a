import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import Testing

@Suite("HeadersBuilder")
struct HeadersBuilderTests {
    enum Mode { case debug, release, test }

    @Test func fieldsKeepTheOrderWrittenAndARepeatedNameAddsAField() {
        let headers = HTTPHeaders {
            Header("X-First", "1")
            Header.acceptLanguage("fr-CH")
            Header("X-Second", "2")
            Header.acceptLanguage("en;q=0.8")
        }
        #expect(Array(headers).map(\.name) == ["X-First", "Accept-Language", "X-Second", "Accept-Language"])
        #expect(headers.values(for: "accept-language") == ["fr-CH", "en;q=0.8"])
        #expect(headers.dictionary["Accept-Language"] == "fr-CH, en;q=0.8")
    }

    @Test func anEmptyBuilderGivesNoFields() {
        let headers = HTTPHeaders {}
        #expect(headers.isEmpty)
    }

    @Test func ifAndIfLetAddFieldsOnlyWhenTheConditionHolds() {
        func build(token: String?, debug: Bool) -> HTTPHeaders {
            HTTPHeaders {
                Header.accept("application/json")
                if let token {
                    Header.authorization(bearer: token)
                }
                if debug {
                    Header("X-Debug", "1")
                }
            }
        }
        #expect(build(token: nil, debug: false) == ["Accept": "application/json"])
        #expect(
            build(token: "t0k", debug: true) == [
                "Accept": "application/json", "Authorization": "Bearer t0k", "X-Debug": "1",
            ])
    }

    @Test func ifElseAndSwitchTakeOneBranch() {
        func build(_ mode: Mode, compact: Bool) -> HTTPHeaders {
            HTTPHeaders {
                if compact {
                    Header.accept("application/json")
                } else {
                    Header.accept("application/json; indent=2")
                }
                switch mode {
                case .debug: Header("X-Mode", "debug")
                case .release: Header("X-Mode", "release")
                case .test: HTTPHeaders()
                }
            }
        }
        #expect(build(.debug, compact: true) == ["Accept": "application/json", "X-Mode": "debug"])
        #expect(build(.release, compact: false) == ["Accept": "application/json; indent=2", "X-Mode": "release"])
        #expect(build(.test, compact: true) == ["Accept": "application/json"])
    }

    @Test func forAddsTheFieldsOfEveryPassInOrder() {
        let cookies = ["a=1", "b=2", "c=3"]
        let headers = HTTPHeaders {
            for cookie in cookies {
                Header("Cookie", cookie)
            }
        }
        #expect(headers.values(for: "Cookie") == cookies)
    }

    @Test func anOptionalHeaderAddsNothingWhenNil() {
        let token: String? = nil
        let language: String? = "de"
        let headers = HTTPHeaders {
            token.map { Header.authorization(bearer: $0) }
            language.map { Header.acceptLanguage($0) }
        }
        #expect(headers == ["Accept-Language": "de"])
    }

    @Test func aHeaderListLineAddsAllItsFieldsInOrder() {
        let defaults = HTTPHeaders([("Cookie", "a=1"), ("Cookie", "b=2"), ("Accept", "text/plain")])
        let headers = HTTPHeaders {
            defaults
            Header("X-After", "yes")
        }
        #expect(Array(headers).map(\.value) == ["a=1", "b=2", "text/plain", "yes"])
    }

    @Test func factoriesWriteTheStandardFields() {
        #expect(Header.accept("application/json") == Header("Accept", "application/json"))
        #expect(Header.contentType("text/csv") == Header("Content-Type", "text/csv"))
        #expect(Header.authorization(bearer: "abc.def") == Header("Authorization", "Bearer abc.def"))
        #expect(Header.userAgent("Shop/2.1") == Header("User-Agent", "Shop/2.1"))
        #expect(Header.acceptLanguage("fr") == Header("Accept-Language", "fr"))
    }

    @Test func basicAuthorizationIsTheBase64OfUsernameColonPasswordInUTF8() throws {
        // RFC 7617 §2's example, and a non-ASCII password.
        #expect(
            Header.authorization(username: "Aladdin", password: "open sesame").value
                == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        let value = Header.authorization(username: "zoë", password: "pässword").value
        let encoded = try #require(value.split(separator: " ").last)
        let decoded = try #require(Data(base64Encoded: String(encoded)))
        #expect(String(decoding: decoded, as: UTF8.self) == "zoë:pässword")
    }

    @Test func builtHeadersWithANewlineAreRejectedWhenTheRequestIsMade() {
        let endpoint = Endpoint(baseURL: URL(string: "https://example.com")!, path: "/x").headers {
            Header("X-Note", "hello\r\nX-Injected: 1")
        }
        #expect(throws: Endpoint.Error.invalidHeader(name: "X-Note")) { try endpoint.urlRequest() }
    }
}
