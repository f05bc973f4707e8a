#!/usr/bin/env bash
# The allocation gate: builds and runs the core benchmarks (this package's futures only, not
# the NIO and OpenCombine peers) and fails when any of them allocates more per operation than
# its threshold in Thresholds/ (one JSON file per benchmark, holding its p90 malloc count per
# iteration; Benchmark.Configuration in BenchmarkSupport sets the tolerance, half an allocation
# per operation).
#
# Malloc counts per operation are deterministic, so they make a reliable gate; times are not
# (they depend on the machine and its load) and are deliberately not checked here.
#
# Exit status: 0 when every count is within its threshold (with a note when some are below:
# lower the thresholds then); 2 when the core allocates more; 1 when the benchmarks fail to
# build or run, or a core benchmark has no threshold.
#
# To accept new counts (after an intended change, or for a new core benchmark), rewrite the
# thresholds and commit them:
#   swift package --disable-sandbox benchmark thresholds update --target CoreBenchmarks \
#       --metric mallocCountTotal --path Thresholds
set -uo pipefail
cd "$(dirname "$0")"

update_command="(cd Benchmarks && swift package --disable-sandbox benchmark thresholds update --target CoreBenchmarks --metric mallocCountTotal --path Thresholds)"

# Every core benchmark must have a threshold; the check silently skips those without one.
missing=0
while IFS= read -r name; do
    if [ ! -f "Thresholds/CoreBenchmarks.$name.p90.json" ]; then
        echo "Allocation gate: no threshold for core benchmark '$name' (Thresholds/CoreBenchmarks.$name.p90.json)."
        missing=1
    fi
done < <(grep -o 'Benchmark("[^"]*"' Benchmarks/CoreBenchmarks/*.swift | sed 's/.*Benchmark("\(.*\)"/\1/')
if [ "$missing" -ne 0 ]; then
    echo "Create the thresholds with: $update_command"
    exit 1
fi

# The plugin reports every failure as exit status 1, so the verdict is read from its output.
output=$(mktemp)
trap 'rm -f "$output"' EXIT
swift package --disable-sandbox benchmark thresholds check \
    --target CoreBenchmarks --metric mallocCountTotal --path Thresholds --no-progress 2>&1 | tee "$output"
status=${PIPESTATUS[0]}

if grep -q "is WORSE than the defined thresholds" "$output"; then
    echo "Allocation gate: FAILED; the core allocates more per operation than its thresholds (see above)."
    exit 2
elif grep -q "is BETTER than the defined thresholds" "$output"; then
    echo "Allocation gate: passed; some core benchmarks now allocate less than their thresholds."
    echo "Lower the thresholds and commit them: $update_command"
    exit 0
elif [ "$status" -eq 0 ] && grep -q "is EQUAL to the defined thresholds" "$output"; then
    echo "Allocation gate: passed; every core benchmark allocates as its threshold says."
    exit 0
else
    echo "Allocation gate: FAILED to build or run the benchmarks (exit status $status)."
    exit 1
fi
