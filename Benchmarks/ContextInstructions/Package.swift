// swift-tools-version: 6.1
import PackageDescription

// A plain program, with no dependency (not even the library), that compares three ways of
// carrying per-call settings past a 10-composer transport stack, for counting instructions
// and mallocs under valgrind (count.sh; results in README.md).
let package = Package(
    name: "ContextInstructions",
    targets: [
        .executableTarget(
            name: "ContextInstructions"
        )
    ]
)
