import Futures
import Testing

// The samples of Futures.docc/BridgingToAsyncAwait.md, as the article shows them.

fileprivate struct Catalogue: Sendable {
    func name(of id: Int) async throws -> String {
        try await Task.sleep(for: .milliseconds(10))
        return id == 7 ? "iPad Pro" : "Pencil"
    }
}

fileprivate let catalogue = Catalogue()

fileprivate func title(for id: Int, using loadName: (Int) -> Future<String>) async throws -> String {
    let name = try await loadName(id).timeout(after: .seconds(10)).value
    return "Product: \(name)"
}

@MainActor
fileprivate final class NameLabel {
    var text = ""

    func load(_ id: Int, with loadName: @escaping @Sendable (Int) -> Future<String>) async {
        text = (try? await loadName(id).value) ?? "unknown"  // back on the main actor here
    }

    func show(_ id: Int, with loadName: @escaping @Sendable (Int) -> Future<String>) {
        loadName(id).observe { [weak self] result in
            self?.text = (try? result.get()) ?? "unknown"
        }
    }
}

fileprivate struct NameService: Sendable {
    let loadName: @Sendable (Int) -> Future<String>
    let loadSeven: @Sendable () -> Future<String>
}

@Suite("Samples: Bridging to async/await")
struct BridgingToAsyncAwaitSamplesTests {
    @Test func awaitingAFutureReturnsItsValue() async throws {
        #expect(try await title(for: 7, using: { Future(value: "iPad Pro \($0)") }) == "Product: iPad Pro 7")
    }

    @Test func aFutureMadeFromAsyncWorkCompletesWithItsResult() async throws {
        let nameOfSeven = Future { try await catalogue.name(of: 7) }

        #expect(try await nameOfSeven.value(within: .seconds(30)) == "iPad Pro")
    }

    @Test func cancellingAFutureMadeFromAsyncWorkCancelsItsTask() async throws {
        let lookup = Future { try await catalogue.name(of: 7) }
        lookup.cancel()  // cancels the task; Task.sleep inside it throws CancellationError

        #expect(lookup.isCancelled)
        await #expect(throws: CancellationError.self) { try await lookup.value }
    }

    @Test func functionsConvertBetweenFuturesAndAsync() async throws {
        let loadName: @Sendable (Int) -> Future<String> = futureFunction(from: catalogue.name(of:))
        let name: @Sendable (Int) async throws -> String = asyncFunction(from: loadName)

        #expect(try await loadName(7).value(within: .seconds(30)) == "iPad Pro")
        #expect(try await Future { try await name(8) }.value(within: .seconds(30)) == "Pencil")
    }

    @Test @MainActor func awaitingOnTheMainActorSetsTheLabel() async throws {
        let label = NameLabel()
        await label.load(7, with: futureFunction(from: catalogue.name(of:)))
        #expect(label.text == "iPad Pro")
    }

    @Test @MainActor func observingOnTheMainActorSetsTheLabel() async throws {
        let label = NameLabel()
        label.show(8, with: futureFunction(from: catalogue.name(of:)))
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while label.text.isEmpty, ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(label.text == "Pencil")
    }

    @Test func sendableInputsGiveSendableFunctionsThatASendableTypeStores() async throws {
        let loadName: @Sendable (Int) -> Future<String> = futureFunction(from: catalogue.name(of:))

        let service = NameService(loadName: loadName, loadSeven: combine(7, with: loadName))

        let seven = try await Task { try await service.loadSeven().value }.value
        #expect(seven == "iPad Pro")
    }
}
