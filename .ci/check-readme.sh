#!/usr/bin/env bash
# Compiles the README as a newcomer uses it: a new package, made from the README's manifest
# fragment, depends on this checkout by path (the fragment's `../FunctionalNetworking` is a
# link to it), and its one source file is every ```swift block of the README, verbatim, in
# order; it is built, then run (it talks only to 127.0.0.1). The package lives under .build/readme-check and keeps its scratch path there, so
# a second run rebuilds only what changed; only the README's `App` product is built.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

work=.build/readme-check
app="$work/App"
mkdir -p "$app/Sources/App" "$app/Tests/AppTests"
ln -sfn "$root" "$work/FunctionalNetworking"

python3 - "$app" <<'PY'
import re, sys
app = sys.argv[1]
with open("README.md") as file:
    text = file.read()
blocks = [m.group(1) for m in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M)]
manifests = [b for b in blocks if b.startswith("// Package.swift\n")]
sources = [b for b in blocks if not b.startswith("// Package.swift\n")]
if len(manifests) != 1:
    sys.exit(f"error: README.md should have one manifest fragment (// Package.swift), found {len(manifests)}")
fragment = manifests[0].split("\n", 1)[1]
# The fragment is the middle of a manifest: the README's `dependencies:` and `targets:`,
# verbatim, inside the lines a new package starts with.
manifest = (
    "// swift-tools-version: 6.2\n"
    "import PackageDescription\n\n"
    "let package = Package(\n"
    '    name: "App",\n'
    "    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],\n"
    + "".join("    " + line + "\n" if line else "\n" for line in fragment.rstrip("\n").split("\n"))
    + ")\n"
)
def write(path, content):
    # Rewritten only when changed, so that an unchanged README rebuilds nothing.
    try:
        with open(path) as file:
            if file.read() == content:
                return
    except FileNotFoundError:
        pass
    with open(path, "w") as file:
        file.write(content)
write(f"{app}/Package.swift", manifest)
write(f"{app}/Sources/App/main.swift", "\n".join(sources))
write(f"{app}/Tests/AppTests/AppTests.swift", "import App\nimport FunctionalNetworkingTesting\n")
print(f"README.md: {len(sources)} Swift block(s) in Sources/App/main.swift, the manifest fragment in Package.swift.")
PY

(cd "$app" && swift build --product App --scratch-path .build)
# And it runs: the tour talks only to its own server on 127.0.0.1.
(cd "$app" && timeout 120 "$(swift build --scratch-path .build --show-bin-path)/App")
printf 'The README compiled as pasted in %ds.\n' "$((SECONDS - started))"
