import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seeds' values built with secrets show none in their description, debug description,
/// string interpolation or `dump`: the same check as the core's, for this module's types.
@Suite("Description secrets of the seeds' values")
struct SeedsDescriptionSecretsTests {
    static let bearer = "b3arer-T0KEN"
    static let cookie = "c00kie-VALUE"
    static let urlPassword = "pa55-IN-URL"
    static let accessToken = "acc3ss-T0KEN"
    static let apiKey = "ap1key-VALUE"
    static let formPassword = "f0rm-PASSW0RD"
    static let clientSecret = "cl1ent-S3CRET"
    static let secrets = [bearer, cookie, urlPassword, accessToken, apiKey, formPassword, clientSecret]

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
        return secrets.filter { shown.contains($0) }
    }

    static let baseURL = URL(string: "https://ada:\(urlPassword)@shop.test/v1?access_token=\(accessToken)")!

    /// Every public value of the seeds that can hold a secret, built with all of them.
    static var valuesBuiltWithSecrets: [(String, Any)] {
        let transport: NetworkClosureType = { _ in throw CancellationError() }
        let auth = AuthComposer(bearerToken: { bearer }, baseFunction: transport)
        let service = Service(baseURL: baseURL, defaultHeaders: ["X-API-Key": apiKey])
            .headers {
                Header.authorization(bearer: bearer)
                Header("Cookie", "session=\(cookie)")
            }
        let body = JSONBody {
            Key("user", "ada")
            Key("password", formPassword)
            Key("client") {
                Key("client_secret", clientSecret)
            }
        }
        return [
            ("Service", service),
            ("Header.authorization(bearer:)", Header.authorization(bearer: bearer)),
            ("Header.authorization(username:password:)", Header.authorization(username: "ada", password: formPassword)),
            ("Header X-API-Key", Header("X-API-Key", apiKey)),
            ("Query access_token", Query("access_token", accessToken)),
            ("Query api_key", Query("api_key", apiKey)),
            ("JSONBody", body),
            ("Key", Key("password", formPassword)),
            ("Key with a nested object", Key("client") { Key("client_secret", clientSecret) }),
            ("AuthComposer", auth),
            ("ComposableNetworking", ComposableNetworking(bearerToken: { bearer }, authComposer: auth, baseFunction: transport)),
            ("Endpoint made by a Service", Endpoint.get("me", from: service)),
        ]
    }

    @Test func noSecretAppearsInTheDescriptionDebugDescriptionInterpolationOrDumpOfAnySeedValueBuiltWithSecrets() {
        for (name, value) in Self.valuesBuiltWithSecrets {
            #expect(Self.leaks(in: value).isEmpty, "\(name) shows a secret:\n\(Self.shownTexts(of: value).joined(separator: "\n"))")
        }
    }
}
