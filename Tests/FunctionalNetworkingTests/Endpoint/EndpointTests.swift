import Foundation
import FunctionalNetworking
import Testing

@Suite("Endpoint")
struct EndpointTests {
    let shop = URL(string: "https://api.example.com/v1")!

    @Test func defaultsToGetWithNothingElse() {
        let endpoint = Endpoint(baseURL: shop, path: "/products")
        #expect(endpoint.method == .get)
        #expect(endpoint.queryItems.isEmpty)
        #expect(endpoint.headers.isEmpty)
        #expect(endpoint.body == nil)
        #expect(endpoint.timeout == nil)
        #expect(endpoint.destination == .baseURL(shop))
    }

    @Test func joinsAPathToABaseURLWithAPathPrefix() {
        #expect(
            Endpoint(baseURL: shop, path: "/products/7").url?.absoluteString
                == "https://api.example.com/v1/products/7")
    }

    @Test(arguments: [
        ("https://api.example.com", "/products", "https://api.example.com/products"),
        ("https://api.example.com", "products", "https://api.example.com/products"),
        ("https://api.example.com/", "/products", "https://api.example.com/products"),
        ("https://api.example.com/", "products", "https://api.example.com/products"),
        ("https://api.example.com/v1", "/products", "https://api.example.com/v1/products"),
        ("https://api.example.com/v1", "products", "https://api.example.com/v1/products"),
        ("https://api.example.com/v1/", "/products", "https://api.example.com/v1/products"),
        ("https://api.example.com/v1/", "products", "https://api.example.com/v1/products"),
        ("http://localhost:8080/api/v2", "/a/b", "http://localhost:8080/api/v2/a/b"),
    ])
    func joinsBaseURLAndPathWithExactlyOneSlash(base: String, path: String, expected: String) {
        #expect(Endpoint(baseURL: URL(string: base)!, path: path).url?.absoluteString == expected)
    }

    @Test func anEmptyPathLeavesTheBaseURLAsItIs() {
        #expect(Endpoint(baseURL: shop, path: "").url?.absoluteString == "https://api.example.com/v1")
        let slashed = URL(string: "https://api.example.com/v1/")!
        #expect(Endpoint(baseURL: slashed, path: "").url?.absoluteString == "https://api.example.com/v1/")
    }

    @Test func keepsATrailingSlashOfThePath() {
        #expect(Endpoint(baseURL: shop, path: "/").url?.absoluteString == "https://api.example.com/v1/")
        #expect(
            Endpoint(baseURL: shop, path: "/products/").url?.absoluteString
                == "https://api.example.com/v1/products/")
    }

    @Test func keepsTheBaseURLsQueryBeforeTheEndpointsAndDropsItsFragment() {
        let base = URL(string: "https://api.example.com/v1?key=k%20y#top")!
        let endpoint = Endpoint(baseURL: base, path: "/search", queryItems: [URLQueryItem(name: "q", value: "a")])
        #expect(endpoint.url?.absoluteString == "https://api.example.com/v1/search?key=k%20y&q=a")
        #expect(Endpoint(baseURL: base, path: "/x").url?.absoluteString == "https://api.example.com/v1/x?key=k%20y")
    }

    @Test func usesTheAbsoluteFormOfARelativeBaseURL() {
        let base = URL(string: "v2", relativeTo: URL(string: "https://api.example.com/api/")!)!
        #expect(Endpoint(baseURL: base, path: "/x").url?.absoluteString == "https://api.example.com/api/v2/x")
    }

    @Test func keepsUserInfoAndPortOfTheBaseURL() {
        let base = URL(string: "https://me:secret@api.example.com:8443/v1")!
        #expect(Endpoint(baseURL: base, path: "/x").url?.absoluteString == "https://me:secret@api.example.com:8443/v1/x")
    }

    @Test func buildsURLsFromSchemeHostAndPort() {
        #expect(
            Endpoint(destination: .server(scheme: "https", host: "api.example.com", port: nil), path: "/products").url?.absoluteString
                == "https://api.example.com/products")
        #expect(
            Endpoint(destination: .server(scheme: "http", host: "127.0.0.1", port: 8080), path: "health").url?.absoluteString
                == "http://127.0.0.1:8080/health")
        #expect(
            Endpoint(destination: .server(scheme: "https", host: "example.com", port: 0), path: "/").url?.absoluteString
                == "https://example.com:0/")
        #expect(
            Endpoint(destination: .server(scheme: "https", host: "example.com", port: 65535), path: "").url?.absoluteString
                == "https://example.com:65535")
    }

    @Test func bracketsIPv6Hosts() {
        #expect(
            Endpoint(destination: .server(scheme: "http", host: "::1", port: 80), path: "/x").url?.absoluteString == "http://[::1]:80/x")
        #expect(
            Endpoint(destination: .server(scheme: "http", host: "[::1]", port: nil), path: "/x").url?.absoluteString == "http://[::1]/x")
    }

    @Test func encodesSpacesInPathSegmentsAsPercent20() {
        #expect(
            Endpoint(baseURL: shop, path: "/my products/a b").url?.absoluteString
                == "https://api.example.com/v1/my%20products/a%20b")
    }

    @Test func encodesPercentQuestionMarkAndHashInThePathBecauseItIsRawText() {
        #expect(
            Endpoint(baseURL: shop, path: "/100%/why?/#1").url?.absoluteString
                == "https://api.example.com/v1/100%25/why%3F/%231")
    }

    @Test func encodesUnicodeInThePath() {
        #expect(
            Endpoint(baseURL: shop, path: "/café/日本/🎉").url?.absoluteString
                == "https://api.example.com/v1/caf%C3%A9/%E6%97%A5%E6%9C%AC/%F0%9F%8E%89")
    }

    @Test func encodesSlashesInsidePathComponentValues() {
        let endpoint = Endpoint(baseURL: shop).appending(pathComponents: ["products", "a/b c"])
        #expect(endpoint.url?.absoluteString == "https://api.example.com/v1/products/a%2Fb%20c")
        let onServer = Endpoint(destination: .server(scheme: "https", host: "example.com", port: nil)).appending(pathComponents: [
            "a/b", "..",
        ])
        #expect(onServer.url?.absoluteString == "https://example.com/a%2Fb/%2E%2E")
    }

    @Test func keepsEmptyPathSegments() {
        #expect(
            Endpoint(baseURL: shop).appending(pathComponents: ["a", "", "b"]).url?.absoluteString
                == "https://api.example.com/v1/a//b")
        #expect(Endpoint(baseURL: shop, path: "a//b").pathComponents == ["a", "", "b"])
    }

    @Test func splitsThePathIntoComponentsAndJoinsThemBack() {
        var endpoint = Endpoint(baseURL: shop, path: "products/7")
        #expect(endpoint.pathComponents == ["products", "7"])
        #expect(endpoint.path == "/products/7")
        endpoint.path = "/a/b/"
        #expect(endpoint.pathComponents == ["a", "b", ""])
        endpoint.path = ""
        #expect(endpoint.pathComponents.isEmpty)
        #expect(endpoint.path == "")
    }

    @Test func encodesQueryItemsStrictly() {
        let items = [
            URLQueryItem(name: "q", value: "a+b c&d=e?f/g#h%i"),
            URLQueryItem(name: "näme=1", value: "日本🎉"),
            URLQueryItem(name: "safe-._~", value: "AZaz09"),
        ]
        let url = Endpoint(baseURL: shop, path: "/s", queryItems: items).url?.absoluteString
        #expect(
            url == "https://api.example.com/v1/s?q=a%2Bb%20c%26d%3De%3Ff%2Fg%23h%25i"
                + "&n%C3%A4me%3D1=%E6%97%A5%E6%9C%AC%F0%9F%8E%89&safe-._~=AZaz09")
    }

    @Test func writesANilQueryValueAsANameWithoutEqualsAndAnEmptyValueWithIt() {
        let items = [URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "empty", value: "")]
        #expect(Endpoint(baseURL: shop, path: "/s", queryItems: items).url?.query == "flag&empty=")
    }

    @Test func keepsQueryItemOrderAndRepeats() {
        let items = [URLQueryItem(name: "b", value: "1"), URLQueryItem(name: "a", value: "2"), URLQueryItem(name: "b", value: "3")]
        #expect(Endpoint(baseURL: shop, path: "/s", queryItems: items).url?.query == "b=1&a=2&b=3")
    }

    @Test func handlesVeryLongPartsOfTenThousandCharacters() throws {
        let long = String(repeating: "é /", count: 3_334).prefix(10_000)
        let endpoint = Endpoint(baseURL: shop, queryItems: [URLQueryItem(name: String(long), value: String(long))]).appending(
            pathComponents: [String(long)])
        let url = try #require(endpoint.url)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        #expect(components.percentEncodedPath.split(separator: "/").last?.removingPercentEncoding == String(long))
        #expect(components.queryItems == [URLQueryItem(name: String(long), value: String(long))])
    }

    @Test func modifiersReturnChangedCopiesAndLeaveTheOriginal() {
        let original = Endpoint(baseURL: shop, path: "/products/")
        let changed =
            original
            .with(method: .post)
            .with(body: Data("{}".utf8))
            .with(timeout: 5)
            .appending(path: "7/reviews")
            .appending(pathComponents: ["a/b"])
            .adding(queryItem: "page", value: "2")
            .adding(queryItems: [URLQueryItem(name: "flag", value: nil)])
            .setting(header: "Accept", to: "application/json")
            .adding(header: "Accept-Language", value: "en")
            .adding(header: "accept-language", value: "fr")
            .setting(header: "ACCEPT", to: "text/html")
        #expect(original == Endpoint(baseURL: shop, path: "/products/"))
        #expect(changed.method == .post)
        #expect(changed.body == Data("{}".utf8))
        #expect(changed.timeout == 5)
        #expect(changed.pathComponents == ["products", "7", "reviews", "a/b"])
        #expect(changed.url?.absoluteString == "https://api.example.com/v1/products/7/reviews/a%2Fb?page=2&flag")
        #expect(changed.headers == HTTPHeaders([("Accept-Language", "en"), ("Accept-Language", "fr"), ("Accept", "text/html")]))
        #expect(changed.setting(header: "accept", to: nil).headers["Accept"] == nil)
        #expect(changed.with(body: nil).with(timeout: nil).body == nil)
    }

    @Test func appendingNothingChangesNothing() {
        let endpoint = Endpoint(baseURL: shop, path: "/a/")
        #expect(endpoint.appending(path: "") == endpoint)
        #expect(endpoint.appending(pathComponents: []) == endpoint)
        #expect(Endpoint(baseURL: shop, path: "").appending(path: "/x").path == "/x")
    }

    @Test func equalEndpointsMakeEqualValuesWhateverTheHeaderCase() {
        let one = Endpoint(baseURL: shop, path: "products/7", headers: ["Accept": "a"])
        let two = Endpoint(baseURL: shop, headers: ["accept": "a"]).appending(pathComponents: ["products", "7"])
        #expect(one == two)
        #expect(Set([one, two]).count == 1)
        #expect(one != one.with(method: .head))
    }
}
