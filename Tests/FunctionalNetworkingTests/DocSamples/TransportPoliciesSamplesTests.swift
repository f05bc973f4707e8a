import Foundation
import FunctionalNetworking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples of FunctionalNetworking.docc/TransportPolicies.md, as the article shows them; the
// policy is asked about redirects made by hand, without a server.

@Suite("Samples: Redirects, challenges and response sizes")
struct TransportPoliciesSamplesTests {
    /// A POST to the API redirected by 307 to `location`.
    static func redirect(to location: String) throws -> Redirect {
        let url = try #require(URL(string: "https://api.shop.example/photos"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data("title=Holiday".utf8)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 307, httpVersion: nil, headerFields: ["Location": location]))
        return try #require(Redirect(response: response, to: request))
    }

    @Test func aPolicyLetsBodiesGoToTheTrustedOriginAndToNoOther() throws {
        let uploads = Origin(url: URL(string: "https://uploads.shop.example")!)
        let policy = RedirectPolicy { redirect in
            let trusted = Origin(url: redirect.proposedRequest.url) == uploads
            return RedirectPolicy.follow(allowingCrossOriginBodies: trusted).decision(for: redirect)
        }
        let transport = NetworkSession(configuration: URLSession.shared.configuration, policy: TransportPolicy(redirects: policy))
        _ = transport

        guard case .follow(let next) = policy.decision(for: try Self.redirect(to: "https://uploads.shop.example/photos")) else {
            Issue.record("the trusted origin receives the body")
            return
        }
        #expect(next.httpBody == Data("title=Holiday".utf8))
        guard case .fail(let error) = policy.decision(for: try Self.redirect(to: "https://cdn.elsewhere.example/photos")) else {
            Issue.record("another origin does not")
            return
        }
        #expect(
            error as? TransportError
                == .crossOriginBody(status: 307, from: "https://api.shop.example", to: "https://cdn.elsewhere.example")
        )
        guard case .follow = policy.decision(for: try Self.redirect(to: "/photos/new")) else {
            Issue.record("the same origin keeps the body")
            return
        }
    }
}
