import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint description")
struct EndpointDescriptionTests {
    static let shop = URL(string: "https://shop.test/v1")!

    @Test func showsTheMethodTheRedactedURLTheHeaderNamesAndTheBodySize() {
        let endpoint = Endpoint(
            method: .post, baseURL: Self.shop, path: "/orders",
            queryItems: [URLQueryItem(name: "access_token", value: "s3cr3t"), URLQueryItem(name: "page", value: "2")],
            headers: ["Authorization": "Bearer s3cr3t", "Accept": "application/json"]
        )
        .with(body: Data(#"{"sku":"A1"}"#.utf8))
        #expect(
            endpoint.description
                == "POST https://shop.test/v1/orders?access_token=<redacted>&page=2 "
                + "[Authorization: <redacted>, Accept: application/json] (body: 12 bytes)"
        )
    }

    @Test func debugDescriptionAddsTheTypeNameAndTheLimitsThatAreSet() {
        var endpoint = Endpoint(baseURL: Self.shop, path: "/me", timeout: 5)
        endpoint.maximumResponseSize = 1024
        #expect(
            String(reflecting: endpoint)
                == "Endpoint(GET https://shop.test/v1/me, timeout: 5.0 s, maximum response size: 1024 bytes)"
        )
    }

    @Test func aMultipartBodyIsShownByItsPartNames() {
        var form = MultipartFormData()
        form.append("Ada", named: "name")
        form.append(Data([1, 2]), named: "photo", filename: "me.jpg", contentType: "image/jpeg")
        let endpoint = Endpoint(method: .post, baseURL: Self.shop).with(body: form)
        #expect(endpoint.description.hasSuffix("(body: a multipart form: name, photo (file me.jpg))"))
    }

    @Test func anEndpointWithoutAValidURLSaysSoAndStillHidesSecretQueryValues() {
        let endpoint = Endpoint(
            destination: .server(scheme: "https", host: "a b", port: 8443), path: "/x",
            queryItems: [URLQueryItem(name: "token", value: "s3cr3t")]
        )
        #expect(endpoint.description == "GET https://a b:8443/x?token=<redacted> (not a valid URL)")
    }

    @Test func dumpShowsTheSameRedactedParts() {
        let endpoint = Endpoint(baseURL: URL(string: "https://ada:pw@shop.test")!, headers: ["Cookie": "id=s3cr3t"])
        var text = ""
        dump(endpoint, to: &text)
        #expect(text.contains(#"- url: "https://<redacted>:<redacted>@shop.test""#))
        #expect(text.contains(#"- Cookie: "<redacted>""#))
    }

    @Test func aDestinationShowsItsRedactedBaseURLOrItsServer() {
        let base = Endpoint.Destination.baseURL(URL(string: "https://ada:pw@shop.test/v1?key=s3cr3t")!)
        #expect(base.description == "https://<redacted>:<redacted>@shop.test/v1?key=<redacted>")
        #expect(String(reflecting: base) == ".baseURL(https://<redacted>:<redacted>@shop.test/v1?key=<redacted>)")
        #expect(Endpoint.Destination.server(scheme: "http", host: "127.0.0.1", port: 8080).description == "http://127.0.0.1:8080")
    }
}
