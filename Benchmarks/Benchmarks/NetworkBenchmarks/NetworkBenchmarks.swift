// The networking benchmarks (7-9 and 11 in Benchmarks/README.md): the composer stack over an
// in-memory transport, requests to a LoopbackServer against raw URLSession, decoded() against
// JSONDecoder, and 100 MiB uploads and downloads against raw URLSession (Transfers.swift). Ours
// are named `.FunctionalNetworking`; the baselines `.BareTransport`, `.URLSession`,
// `.URLSessionData` and `.JSONDecoder`; `.SessionRequest` is the package's `URLSession.request`
// without composers.

import Benchmark
import BenchmarkSupport
import Foundation
import FunctionalNetworking
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let benchmarks: @Sendable () -> Void = {
    composerBenchmarks()
    loopbackBenchmarks()
    decodingBenchmarks()
    transferBenchmarks()
}

/// 7. One request per operation through the ten composers of `Stack` over an in-memory
///    transport, against the bare transport; each composer alone, to see what each costs; and,
///    to see what the composition itself costs, the identity composer and the same ten
///    composers wrapped one by one with `wrapping(_:)` instead of `compose(_:with:)`.
func composerBenchmarks() {
    composerBenchmark("7-composer-stack.BareTransport") { InMemory.transport() }
    composerBenchmark("7-composer-stack.FunctionalNetworking") {
        NetworkSession(sending: InMemory.transport()).transport(with: Stack.composers(authenticating: InMemory.origin))
    }
    for (name, composer) in Stack.single(authenticating: InMemory.origin) {
        composerBenchmark("7-composer-\(name).FunctionalNetworking") {
            NetworkSession(sending: InMemory.transport()).transport(with: composer)
        }
    }
    composerBenchmark("7-composer-identity.FunctionalNetworking") {
        NetworkSession(sending: InMemory.transport()).transport(with: .identity)
    }
    composerBenchmark("7-composer-stack-nested.FunctionalNetworking") {
        var transport = InMemory.transport()
        for composer in Stack.composers(authenticating: InMemory.origin).reversed() {
            transport = composer.wrapping(transport)
        }
        return transport
    }
}

/// A benchmark of 7: `makeTransport` runs before the measurement, then each operation sends
/// one request through the transport it made.
func composerBenchmark(_ name: String, _ makeTransport: @escaping () -> Transport) {
    let request = InMemory.request
    Benchmark(name, configuration: Suite.configuration()) { benchmark in
        let transport = makeTransport()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await transport(request))
        }
    }
}

/// 8. A batch of 1,000 GETs to a LoopbackServer (one operation), one after another or all at
///    once: an `Endpoint` through our stack over `URLSession.transport`, awaiting the future's
///    value, against `URLSession.data(for:)` with the same URLs on a session configured the
///    same way. In between, to tell the composers' share from the rest of our path, the
///    package's `URLSession.request` alone (no composers).
func loopbackBenchmarks() {
    loopbackBenchmark("8-loopback-sequential-1000.FunctionalNetworking") { running in
        for index in 0..<batchSize {
            blackHole(try await running.send(running.endpoint(index)).value)
        }
    }
    loopbackBenchmark("8-loopback-sequential-1000.SessionRequest") { running in
        for index in 0..<batchSize {
            blackHole(try await running.session.request(running.endpoint(index)).value)
        }
    }
    loopbackBenchmark("8-loopback-sequential-1000.URLSession") { running in
        for index in 0..<batchSize {
            blackHole(try await running.session.data(for: running.request(index)).0)
        }
    }

    loopbackBenchmark("8-loopback-concurrent-1000.FunctionalNetworking") { running in
        let futures = (0..<batchSize).map { index in running.send(running.endpoint(index)) }
        for future in futures {
            blackHole(try await future.value)
        }
    }
    loopbackBenchmark("8-loopback-concurrent-1000.SessionRequest") { running in
        let futures = (0..<batchSize).map { index in running.session.request(running.endpoint(index)) }
        for future in futures {
            blackHole(try await future.value)
        }
    }
    loopbackBenchmark("8-loopback-concurrent-1000.URLSession") { running in
        try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<batchSize {
                group.addTask { try await running.session.data(for: running.request(index)).0 }
            }
            for try await data in group {
                blackHole(data)
            }
        }
    }
}

/// A benchmark of 8 with a fixture of its own (a server and a session, made by its setup and
/// stopped by its teardown); each operation runs `batch` once.
func loopbackBenchmark(_ name: String, _ batch: @escaping @Sendable (LoopbackFixture.Running) async throws -> Void) {
    let fixture = LoopbackFixture()
    Benchmark(
        name,
        configuration: Suite.configuration(scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 40),
        closure: { benchmark in
            let running = try fixture.current()
            try await fixture.forgetRecordedRequests()
            benchmark.startMeasurement()
            try await batch(running)
        },
        setup: { try fixture.start() },
        teardown: { fixture.stop() }
    )
}

/// 9. Decoding 100 products (one operation): `decoded()` on a completed `Future<Data>`, awaited,
///    against `JSONDecoder().decode` (a new default decoder each time, as `decoded()` makes).
func decodingBenchmarks() {
    let configuration = Suite.configuration(scalingFactor: .one, maxDuration: .seconds(3))

    Benchmark("9-decoded-100.FunctionalNetworking", configuration: configuration) { benchmark in
        let source = Future(value: Catalogue.json)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let products: Future<[Product]> = source.decoded()
            blackHole(try await products.value)
        }
    }

    Benchmark("9-decoded-100.JSONDecoder", configuration: configuration) { benchmark async throws in
        let data = Catalogue.json
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoder().decode([Product].self, from: data))
        }
    }
}
