#!/usr/bin/env bash
# Builds the DocC catalogs of the four library modules with warnings as errors, fails on any
# public symbol of this repository without a doc comment, and checks that every code sample in
# the README and the articles also appears in a test under Tests/*/DocSamples/.
#
# Run from the repository root after a debug `swift build` (it reads .build/debug/Modules).
# Every module is checked even when an earlier one fails, so one run lists every problem.
#
# `-emit-extension-block-symbols` gives pages to the members a module adds to other modules'
# types (`URLSession.request(_:)`, `Future.decoded()`); without it DocC drops them. Their
# link paths then start with the extended module, which differs between Linux
# (FoundationNetworking) and Apple platforms (Foundation), so the articles write those
# members in code voice instead of linking them.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
modules=(Futures FunctionalNetworking FunctionalNetworkingTesting FunctionalNetworkingSeeds)
scratch=.build/docs
modules_dir=.build/debug/Modules

if [[ ! -d "$modules_dir" ]]; then
    echo "error: $modules_dir is missing; run 'swift build' first." >&2
    exit 1
fi

failed=()
triple=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
rm -rf "$scratch"
mkdir -p "$scratch"

for module in "${modules[@]}"; do
    printf '==> %s (at %ds)\n' "$module" "$((SECONDS - started))"
    graphs="$scratch/symbol-graphs/$module"
    mkdir -p "$graphs"
    swift-symbolgraph-extract \
        -module-name "$module" \
        -I "$modules_dir" \
        -I .build/debug/CFutex.build \
        -target "$triple" \
        -minimum-access-level public \
        -skip-inherited-docs \
        -emit-extension-block-symbols \
        -output-dir "$graphs"

    # Every public symbol declared in this repository has a doc comment.
    python3 - "$graphs" "$PWD" <<'PY' || failed+=("$module: public symbols without a doc comment")
import glob, json, os, sys
from urllib.parse import unquote, urlparse

graphs, root = sys.argv[1], os.path.realpath(sys.argv[2])
missing = []
for path in sorted(glob.glob(os.path.join(graphs, "*.symbols.json"))):
    with open(path) as file:
        graph = json.load(file)
    for symbol in graph.get("symbols", []):
        uri = symbol.get("location", {}).get("uri")
        if not uri:
            continue
        source = os.path.realpath(unquote(urlparse(uri).path))
        if not source.startswith(root + os.sep) or "/.build" in source:
            continue
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol.get("kind", {}).get("identifier") == "swift.extension":
            continue
        lines = (symbol.get("docComment") or {}).get("lines") or []
        if not any(line.get("text", "").strip() for line in lines):
            position = symbol["location"].get("position", {})
            name = ".".join(symbol.get("pathComponents", [])) or symbol["names"]["title"]
            missing.append(f"{os.path.relpath(source, root)}:{position.get('line', 0) + 1}: {name}")
if missing:
    print("error: public symbols without a doc comment:", file=sys.stderr)
    for entry in missing:
        print("  " + entry, file=sys.stderr)
    sys.exit(1)
PY

    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --output-path "$scratch/$module.doccarchive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$module" \
        --warnings-as-errors \
        || failed+=("$module: docc reported the problems above")
done

printf '==> Samples (at %ds)\n' "$((SECONDS - started))"
# Every ```swift block of the README, the articles and the `///` comments of Sources/ appears,
# line by line, in one test file (leading whitespace, blank lines and a leading
# `private`/`fileprivate` ignored), so a sample cannot change without the test that compiles
# and runs it. Samples live in Tests/*/DocSamples/;
# a few declarations of the seed's code (`URLSession.productNetworking`…) are the test target's
# own, in ProductLoaderTests.swift and Support/, and are found there. A block whose first line is
# `// Package.swift` is a manifest fragment, which no test can compile, and is skipped; so is
# the README's list of imports (only `import` and `#if canImport` lines), which a test file
# cannot hold verbatim above its own `import Testing`. .ci/check-readme.sh compiles both.
if python3 - <<'PY'
import glob, re, sys

def squeeze(text):
    # Compare code, not layout: swift-format may re-wrap or re-indent a sample inside its test.
    text = re.sub(r"\b(fileprivate|private)\s+", "", text)
    text = re.sub(r"\s+", "", text)
    return re.sub(r",([\])])", r"\1", text)

def lines_of(text):
    return [line.strip() for line in text.splitlines() if line.strip()]

tests = {}
for path in sorted(glob.glob("Tests/**/*.swift", recursive=True)):
    with open(path) as file:
        tests[path] = squeeze(file.read())

def contains(haystack, needle):
    return squeeze("\n".join(needle)) in haystack

documents = ["README.md"] + sorted(glob.glob("Sources/*/*.docc/*.md"))
stale, count, skipped = [], 0, 0
for document in documents:
    with open(document) as file:
        text = file.read()
    for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
        count += 1
        sample = lines_of(match.group(1))
        if sample and sample[0] == "// Package.swift":
            skipped += 1
            continue
        if document == "README.md" and sample and all(
            re.fullmatch(r"import \w+|#if canImport\(\w+\)|#endif", line) for line in sample
        ):
            skipped += 1
            continue
        if sample and not any(contains(lines, sample) for lines in tests.values()):
            line = text.count("\n", 0, match.start()) + 1
            stale.append(f"{document}:{line}")
# The ```swift blocks of the `///` doc comments of Sources/, under the same rule: a block starts
# at a `/// ```swift` line and ends at the next `/// ```` line; each line loses its `///` and
# one space.
comment_count, comment_stale = 0, 0
for path in sorted(glob.glob("Sources/**/*.swift", recursive=True)):
    with open(path) as file:
        source_lines = file.read().splitlines()
    index = 0
    while index < len(source_lines):
        if source_lines[index].strip() != "/// ```swift":
            index += 1
            continue
        opening, block = index + 1, []
        index += 1
        while index < len(source_lines) and source_lines[index].strip() != "/// ```":
            line = source_lines[index].strip()
            line = line[3:] if line.startswith("///") else line
            block.append(line[1:] if line.startswith(" ") else line)
            index += 1
        index += 1
        comment_count += 1
        sample = lines_of("\n".join(block))
        if sample and not any(contains(lines, sample) for lines in tests.values()):
            stale.append(f"{path}:{opening}")
            comment_stale += 1
print(f"{comment_count} doc-comment samples, {comment_count - comment_stale} found in a test.")
if stale:
    print("error: samples not found verbatim in any test file:", file=sys.stderr)
    for entry in stale:
        print("  " + entry, file=sys.stderr)
    sys.exit(1)
samples_in_doc_tests = sum(1 for path in tests if "/DocSamples/" in path)
print(f"{count - skipped} samples, each found in a test ({samples_in_doc_tests} DocSamples files); "
      f"{skipped} manifest fragment(s) and README import list(s) skipped (.ci/check-readme.sh builds them).")
PY
then :; else failed+=("samples: the blocks listed above are not in any DocSamples test"); fi

elapsed=$((SECONDS - started))
if ((${#failed[@]})); then
    printf '\nDocs check FAILED in %ds:\n' "$elapsed" >&2
    printf '  %s\n' "${failed[@]}" >&2
    exit 1
fi
printf '\nDocs checked in %ds: no warnings, every public symbol documented, every sample tested.\n' "$elapsed"
