import FunctionalNetworking
import Testing

@Suite("Credential, CredentialStore and Authenticator descriptions")
struct CredentialDescriptionTests {
    @Test func dumpOfACredentialShowsItsKindAndUserNameButNotTheSecret() {
        var text = ""
        dump(Credential.basic(username: "ada", password: "s3cr3t"), to: &text)
        #expect(text.contains(#"- username: "ada""#))
        #expect(text.contains(#"- password: "<redacted>""#))
        #expect(String(reflecting: Credential.bearer("s3cr3t")) == "Credential.bearer(<redacted>)")
    }

    @Test func aStoreShowsTheKindOfItsCredentialOrThatItIsSignedOut() {
        #expect(CredentialStore(.bearer("s3cr3t")).description == "CredentialStore(Credential.bearer(<redacted>))")
        #expect(String(reflecting: CredentialStore()) == "CredentialStore(signed out)")
    }

    @Test func anAuthenticatorShowsItsOriginsAndItsRefreshLimits() {
        let auth = Authenticator(
            store: CredentialStore(.bearer("s3cr3t")), allowedOrigins: [Origin(scheme: "https", host: "api.shop.test", port: 443)]
        )
        #expect(
            auth.description
                == "Authenticator(CredentialStore(Credential.bearer(<redacted>)), origins: [https://api.shop.test:443], "
                + "refresh: no, at most 3 per 60.0 seconds)"
        )
    }
}
