#!/usr/bin/env bash
# The allocation gate: builds and runs the core benchmarks (this package's futures only, not
# the NIO and OpenCombine peers) and fails when any of them allocates more per operation than
# its threshold in Thresholds/.
#
# Malloc counts per operation are deterministic, so they make a reliable gate; times do not
# (they depend on the machine and its load) and are deliberately not checked here.
#
# Exit status: 0 when every count is at or below its threshold (with a note when some are
# below: lower the thresholds then); non-zero on a regression (2) or any failure to build or run.
#
# To accept new counts (after an intended change), rewrite the thresholds and commit them:
#   swift package --disable-sandbox benchmark thresholds update --target CoreBenchmarks \
#       --metric mallocCountTotal --path Thresholds
set -uo pipefail
cd "$(dirname "$0")"

swift package --disable-sandbox benchmark thresholds check \
    --target CoreBenchmarks --metric mallocCountTotal --path Thresholds --no-progress
status=$?

case $status in
0)
    echo "Allocation gate: passed; every core benchmark allocates as its threshold says."
    ;;
4)
    echo "Allocation gate: passed; some core benchmarks now allocate less than their thresholds."
    echo "Lower the thresholds and commit them:"
    echo "  (cd Benchmarks && swift package --disable-sandbox benchmark thresholds update --target CoreBenchmarks --metric mallocCountTotal --path Thresholds)"
    status=0
    ;;
2)
    echo "Allocation gate: FAILED; the core allocates more per operation than its thresholds (see above)."
    ;;
*)
    echo "Allocation gate: FAILED to build or run the benchmarks (exit status $status)."
    ;;
esac
exit $status
