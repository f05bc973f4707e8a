import Foundation
import FunctionalNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// No public value built with secrets shows one in its description, its debug description,
/// string interpolation or `dump`: every one of them goes through `Redaction.default`.
@Suite("Description secrets")
struct DescriptionSecretsTests {
    static let bearer = "b3arer-T0KEN"
    static let cookie = "c00kie-VALUE"
    static let urlPassword = "pa55-IN-URL"
    static let accessToken = "acc3ss-T0KEN"
    static let apiKeyQuery = "ap1key-IN-QUERY"
    static let apiKeyHeader = "ap1key-IN-HEADER"
    static let formPassword = "f0rm-PASSW0RD"
    static let clientSecret = "cl1ent-S3CRET"
    static let setCookie = "s3t-c00kie-VALUE"
    static let secrets = [
        bearer, cookie, urlPassword, accessToken, apiKeyQuery, apiKeyHeader, formPassword, clientSecret, setCookie,
    ]

    /// What a developer sees of `value`: its description, its debug description, string
    /// interpolation and the text of `dump`.
    static func shownTexts<Value>(of value: Value) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    /// The secrets found in what is shown of `value`.
    static func leaks<Value>(in value: Value) -> [String] {
        let shown = shownTexts(of: value).joined(separator: "\n")
        let basic = Data("ada:\(formPassword)".utf8).base64EncodedString()
        return (secrets + [basic]).filter { shown.contains($0) }
    }

    static let url = URL(string: "https://ada:\(urlPassword)@shop.test/v1?access_token=\(accessToken)")!
    static let headers: HTTPHeaders = [
        "Authorization": "Bearer \(bearer)", "Cookie": "session=\(cookie)", "X-API-Key": apiKeyHeader,
        "Accept": "application/json",
    ]
    static let form: FormBody = [
        "grant_type": "client_credentials", "password": formPassword, "client_secret": clientSecret,
    ]
    static var multipart: MultipartFormData {
        var form = MultipartFormData()
        form.append("Ada", named: "name")
        form.append(formPassword, named: "password")
        form.append(Data(clientSecret.utf8), named: "client_secret", filename: "secret.txt", contentType: "text/plain")
        return form
    }
    static let endpoint = Endpoint(
        method: .post, baseURL: url, path: "/orders",
        queryItems: [
            URLQueryItem(name: "access_token", value: accessToken), URLQueryItem(name: "api_key", value: apiKeyQuery),
            URLQueryItem(name: "page", value: "2"),
        ],
        headers: headers
    )
    static var request: URLRequest {
        var request = URLRequest(url: URL(string: "https://ada:\(urlPassword)@shop.test/me?api_key=\(apiKeyQuery)")!)
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = form.encoded
        return request
    }

    /// Every public value of the core that can hold a secret, built with all of them.
    static var valuesBuiltWithSecrets: [(String, Any)] {
        let response = HTTPURLResponse(
            url: URL(string: "https://ada:\(urlPassword)@shop.test/old?access_token=\(accessToken)")!, statusCode: 307,
            httpVersion: "HTTP/1.1", headerFields: ["Location": "/new?api_key=\(apiKeyQuery)", "Set-Cookie": "id=\(setCookie)"]
        )!
        let redirect = Redirect(response: response, to: request)
        let store = CredentialStore(.bearer(bearer))
        let values: [(String, Any)] = [
            ("Endpoint", endpoint),
            ("Endpoint with a form body", endpoint.with(body: form)),
            ("Endpoint with a multipart body", endpoint.with(body: multipart)),
            (
                "Endpoint without a valid URL",
                Endpoint(destination: .server(scheme: "https", host: "a b", port: nil), queryItems: endpoint.queryItems, headers: headers)
            ),
            ("Endpoint.Destination", Endpoint.Destination.baseURL(url)),
            ("HTTPHeaders", headers),
            (
                "Endpoint.Response<Data>",
                Endpoint.Response(value: Data(bearer.utf8), status: 200, headers: ["Set-Cookie": "id=\(setCookie)"], url: url)
            ),
            ("Endpoint.Response<String>", Endpoint.Response(value: "token: \(bearer)", status: 200, headers: headers, url: url)),
            ("FormBody", form),
            ("FormBody.Field", FormBody.Field("password", formPassword)),
            ("MultipartFormData", multipart),
            ("MultipartFormData.Part", multipart.parts[1]),
            ("MultipartFormData.Part.Content", multipart.parts[2].content),
            ("Credential.bearer", Credential.bearer(bearer)),
            ("Credential.basic", Credential.basic(username: "ada", password: formPassword)),
            ("CredentialStore", store),
            ("Authenticator", Authenticator(store: store, allowedOrigins: [Origin(url: url)!], refresh: { _ in .bearer(bearer) })),
            ("Redirect", redirect!),
            ("RedirectDecision.follow", RedirectDecision.follow(request)),
            ("RedirectDecision.fail", RedirectDecision.fail(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url]))),
            ("Optional<Endpoint>", Optional(endpoint) as Any),
            ("[Endpoint]", [endpoint]),
        ]
        return values
    }

    @Test func noSecretAppearsInTheDescriptionDebugDescriptionInterpolationOrDumpOfAnyValueBuiltWithSecrets() {
        for (name, value) in Self.valuesBuiltWithSecrets {
            #expect(Self.leaks(in: value).isEmpty, "\(name) shows a secret:\n\(Self.shownTexts(of: value).joined(separator: "\n"))")
        }
    }

    @Test func theCheckFindsASecretThatAValueShows() {
        struct Plain { let token = DescriptionSecretsTests.bearer }
        #expect(Self.leaks(in: Plain()) == [Self.bearer])
        #expect(!Self.leaks(in: Self.request).isEmpty, "a URLRequest is Foundation's and shows its URL as it is")
    }
}
