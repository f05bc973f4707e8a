// The composer stack of benchmark 7 (Benchmarks/README.md) as a plain program, for counting
// instructions under `valgrind --tool=callgrind` (see count-instructions.sh --stack):
//
//     StackInstructions <scenario> <requests>
//
// It sends `requests` requests, one after another, through the in-memory transport alone
// (`bare`), through the whole stack of `Stack.swift` (`stack`, the same file as benchmark 7's:
// a symbolic link), or through one of its composers (`composer-<name>`), and exits. The script
// runs it twice, with two counts of requests, and divides the difference of the instruction
// totals by the difference of the counts.
//
// The requests run in a detached task while the main thread waits on a semaphore: valgrind
// 3.19 crashes in an `async` main (dispatch's main-thread `sigsuspend`).

import Dispatch
import Foundation
import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3, let requests = Int(arguments[2]) else {
    fatalError("usage: StackInstructions <bare | stack | composer-<name>> <requests>")
}
let scenario = arguments[1]

let transport: Transport
switch scenario {
case "bare":
    transport = InMemory.transport()
case "stack":
    transport = NetworkSession(sending: InMemory.transport()).transport(with: Stack.composers(authenticating: InMemory.origin))
default:
    let name = scenario.hasPrefix("composer-") ? String(scenario.dropFirst("composer-".count)) : scenario
    guard let composer = Stack.single(authenticating: InMemory.origin).first(where: { $0.name == name })?.composer else {
        fatalError("unknown scenario \(scenario)")
    }
    transport = NetworkSession(sending: InMemory.transport()).transport(with: composer)
}

/// Counts the answers, so that none is optimised away.
final class Received: @unchecked Sendable {
    var bytes = 0
}

let received = Received()
let done = DispatchSemaphore(value: 0)
let request = InMemory.request
Task.detached {
    for _ in 0..<requests {
        do {
            received.bytes &+= try await transport(request).0.count
        } catch {
            fatalError("a request failed: \(error)")
        }
    }
    done.signal()
}
done.wait()
if received.bytes == 0 && requests > 0 {
    fatalError("no answer")
}
