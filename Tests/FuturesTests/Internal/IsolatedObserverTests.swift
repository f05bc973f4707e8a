import Testing

@testable import Futures

@Suite("IsolatedObserver")
struct IsolatedObserverTests {
    @Test func aNonisolatedObserverHasNoIsolationAndRunsSynchronously() {
        let seen = Recorder<Int>()
        let observer = IsolatedObserver<Int> { result in
            seen.append((try? result.get()) ?? -1)
        }
        #expect(observer.isolation == nil)
        observer.synchronous(.success(7))
        #expect(seen.values == [7])  // ran before `synchronous` returned
    }

    @MainActor
    @Test func aMainActorObserverRunsSynchronouslyOnTheMainActor() {
        var seen: [String] = []
        let observer = IsolatedObserver<String> { @MainActor result in
            seen.append((try? result.get()) ?? "failed")
        }
        #expect(observer.isolation.map { ObjectIdentifier($0) } == ObjectIdentifier(MainActor.shared))
        observer.synchronous(.success("iPad"))
        observer.synchronous(.failure(TestError()))
        #expect(seen == ["iPad", "failed"])
    }
}
