import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A download's file on disk: its temporary name fits any destination's name, and the file it
/// replaces keeps its permissions.
@Suite("A download's file")
struct TransferFileTests {
    /// Names of 240 and 255 bytes, and one of 240 bytes in two-byte characters: each is a valid
    /// file name, and the temporary name beside it must be too.
    @Test(arguments: [String(repeating: "a", count: 240), String(repeating: "b", count: 255), String(repeating: "é", count: 120)])
    func aLongDestinationNameIsDownloadedAndNothingElseIsLeft(_ name: String) async throws {
        let server = try LoopbackServer { _ in .text("long") }
        defer { server.stop() }
        let folder = try DownloadTests.Folder()
        let destination = folder.file(name)
        try await download(Endpoint(baseURL: server.baseURL, path: "/long"), to: destination, through: makeTestSession().transport)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "long")
        #expect(folder.names == [name])
    }

    @Test func aReplacedFileKeepsItsPermissions() async throws {
        let server = try LoopbackServer { _ in .text("new secret") }
        defer { server.stop() }
        let folder = try DownloadTests.Folder()
        let destination = folder.file("secret.txt")
        try Data("old".utf8).write(to: destination)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: destination.path)
        try await download(Endpoint(baseURL: server.baseURL, path: "/s"), to: destination, through: makeTestSession().transport)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "new secret")
        let permissions = try FileManager.default.attributesOfItem(atPath: destination.path)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
    }

    @Test func aFileWrittenFromAnotherTransportKeepsThePermissionsOfTheOneItReplaces() async throws {
        let folder = try DownloadTests.Folder()
        let destination = folder.file("stubbed.txt")
        try Data("old".utf8).write(to: destination)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: destination.path)
        let stub: Transport = { request in
            (Data("stubbed".utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
        }
        try await download(Endpoint(baseURL: URL(string: "http://127.0.0.1:1/s")!), to: destination, through: stub)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "stubbed")
        let permissions = try FileManager.default.attributesOfItem(atPath: destination.path)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o640)
        #expect(folder.names == ["stubbed.txt"])
    }
}
