import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("RequestContext")
struct RequestContextTests {
    private let request = URLRequest(url: URL(string: "https://shop.test/products")!)

    /// A transport that answers with the id the request was sent under, or "none".
    private var echoContext: Transport {
        stubTransport { request in
            (Data((RequestContext.current.id?.uuidString ?? "none").utf8), stubResponse(for: request))
        }
    }

    @Test func thereIsNoContextOutsideANumberedStack() async throws {
        #expect(RequestContext.current.id == nil)
        let (data, _) = try await echoContext(request)
        #expect(String(decoding: data, as: UTF8.self) == "none")
    }

    @Test func aChosenIDIsTheIDOfTheRequest() async throws {
        let id = UUID()
        let transport = NetworkSession(sending: echoContext).transport(with: .numbered())
        let (data, _) = try await RequestContext.withID(id) { try await transport(request) }
        #expect(String(decoding: data, as: UTF8.self) == id.uuidString)
    }

    @Test func aFutureStartedInsideWithIDCarriesTheID() async throws {
        let id = UUID()
        let networking = networking(from: NetworkSession(sending: echoContext).transport(with: .numbered()))
        let future = RequestContext.withID(id) { networking(Endpoint(baseURL: URL(string: "https://shop.test")!, path: "/a")) }
        #expect(String(decoding: try await future.value(within: .seconds(30)), as: UTF8.self) == id.uuidString)
    }

    @Test func aChosenIDIsNotReusedByANestedStack() async throws {
        let outerID = UUID()
        let inner = NetworkSession(sending: echoContext).transport(with: .numbered())
        let outer = NetworkSession(sending: stubTransport(data: Data())).transport(
            with: .numbered(),
            Composer { _ in
                { request in try await inner(request) }
            })
        let (data, _) = try await RequestContext.withID(outerID) { try await outer(request) }
        let innerID = String(decoding: data, as: UTF8.self)
        #expect(innerID != outerID.uuidString)
        #expect(UUID(uuidString: innerID) != nil)
    }

    @Test func theDescriptionIsTheNumberAndTheEndOfTheIDAsMuchAsTheCallHas() throws {
        let id = try #require(UUID(uuidString: "00000000-0000-4000-8000-00003F2A9C1E"))
        #expect(RequestContext(id: id, number: 3).description == "#3 3F2A9C1E")
        #expect(RequestContext(id: id).description == "3F2A9C1E")
        #expect(RequestContext(number: 3).description == "#3")
        #expect(RequestContext().description == "-")
    }

    @Test func theCallsOfOneNumberedStackHaveDescriptionsThatDiffer() async throws {
        let seen = Collected<String>()
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(
            with: .numbered(),
            Composer { next in
                { request in
                    seen.append(RequestContext.current.description)
                    return try await next(request)
                }
            })
        for _ in 0..<3 {
            _ = try await transport(request)
        }
        #expect(Set(seen.values.map { $0.split(separator: " ")[1] }).count == 3)
    }

    @Test func anEntryPointSetsTheEndpointsLimitAndADownloadSaysWhereTo() async throws {
        let seen = Collected<String>()
        let transport = NetworkSession(sending: { request in
            let context = RequestContext.current
            seen.append(
                "\(context.maximumResponseSize.map(String.init) ?? "none") \(context.downloadDestination?.lastPathComponent ?? "memory")")
            return (Data("ok".utf8), stubResponse(for: request))
        }).transport
        _ = try await networking(from: transport)(Endpoint(baseURL: URL(string: "https://shop.test")!).with(maximumResponseSize: 64)).value
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("context-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try await download(Endpoint(baseURL: URL(string: "https://shop.test/")!), to: file, through: transport)
        #expect(seen.values == ["64 memory", "none \(file.lastPathComponent)"])
        #expect(RequestContext.current.maximumResponseSize == nil)
    }

    @Test func aRequestContextShowsItsNumberAndSettingsButNotThePackagesOwn() {
        let context = RequestContext(number: 3, maximumResponseSize: 1024)
        #expect(String(reflecting: context) == "RequestContext(#3, maximum response size: 1024 bytes)")
    }
}
