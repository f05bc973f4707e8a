import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import Testing

@Suite("Service, Header, Query, JSONBody and Key descriptions")
struct DeclarativeDescriptionTests {
    @Test func aServiceShowsItsRedactedBaseURLAndItsHeaders() {
        let service = Service(baseURL: URL(string: "https://ada:pw@shop.test/v1")!, defaultHeaders: ["Accept": "*/*"])
            .appending(pathComponents: "admin")
            .headers { Header.authorization(bearer: "s3cr3t") }
        #expect(service.description == "https://<redacted>:<redacted>@shop.test/v1/admin [Accept: */*, Authorization: <redacted>]")
        #expect(String(reflecting: service).hasPrefix("Service(https://<redacted>"))
    }

    @Test func aHeaderShowsItsValueUnlessTheHeaderIsSecret() {
        #expect(Header.accept("application/json").description == "Accept: application/json")
        #expect(String(reflecting: Header.authorization(bearer: "s3cr3t")) == "Header(Authorization: <redacted>)")
    }

    @Test func aQueryShowsItsValueUnlessTheNameIsSecret() {
        #expect(Query("page", 2).description == "page=2")
        #expect(Query("verbose").description == "verbose")
        #expect(String(reflecting: Query("access_token", "s3cr3t")) == "Query(access_token=<redacted>)")
    }

    @Test func aJSONBodyShowsItselfAsJSONWithSecretNamedMembersHidden() {
        let body = JSONBody {
            Key("user", "ada")
            Key("password", "s3cr3t")
            Key("client") { Key("client_secret", "c") }
        }
        #expect(body.description == #"{"client":{"client_secret":"<redacted>"},"password":"<redacted>","user":"ada"}"#)
        #expect(String(reflecting: Key("count", 3)) == #"Key({"count":3})"#)
    }
}
