import FunctionalNetworking
import Testing

@Suite("FormBody description")
struct FormBodyDescriptionTests {
    @Test func showsEveryFieldInOrderAndHidesTheValuesOfSecretNamedFields() {
        let form: FormBody = ["grant_type": "password", "username": "ada", "password": "s3cr3t", "client_secret": "c"]
        #expect(form.description == "[grant_type: password, username: ada, password: <redacted>, client_secret: <redacted>]")
        #expect(String(reflecting: form).hasPrefix("FormBody([grant_type: password"))
    }

    @Test func aFieldShowsItsNameAndItsValueUnlessTheNameIsSecret() {
        #expect(FormBody.Field("username", "ada").description == "username: ada")
        #expect(String(reflecting: FormBody.Field("Password", "s3cr3t")) == "FormBody.Field(Password: <redacted>)")
    }
}
