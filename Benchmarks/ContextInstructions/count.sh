#!/usr/bin/env bash
# Instructions and mallocs per call of each scenario of ContextInstructions (README.md).
#
#   bash Benchmarks/ContextInstructions/count.sh [scenario ...]
#
# Builds the program in release mode, strips it (valgrind cannot read Swift's debug
# information), and runs each scenario with N1 and N2 calls (1,000 and 6,000) under
# `valgrind --tool=callgrind` (instructions: the `summary:` total) and under
# `valgrind --tool=memcheck` (mallocs: "total heap usage: N allocs"); per call is
# (X(N2) - X(N1)) / (N2 - N1), so that start-up, the runtime's first look-ups and exit cancel.
set -euo pipefail
cd "$(dirname "$0")"
scratch=${SCRATCH_PATH:-.build}
n1=1000 n2=6000
if [ $# -gt 0 ]; then
    scenarios=("$@")
else
    scenarios=(bare-0 bare-A bare-B today-7 today-common A A-seed B-struct B-class
        today-7-inherit today-7-fresh A-inherit A-fresh B-struct-inherit B-struct-fresh
        B-class-inherit B-class-fresh)
fi
if ! command -v valgrind > /dev/null; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind > /dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --scratch-path "$scratch" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
strip -o "$work/bin" "$scratch/release/ContextInstructions"

instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$work/bin" "$1" "$2" > "$work/log" 2>&1 \
        || { cat "$work/log" >&2; return 1; }
    awk '/^summary:/ { print $2 }' "$work/cg.out"
}
mallocs() {
    valgrind --tool=memcheck --leak-check=no "$work/bin" "$1" "$2" > "$work/log" 2>&1 \
        || { cat "$work/log" >&2; return 1; }
    sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$work/log" | tr -d ,
}
per_call() { awk -v a="$1" -v b="$2" -v n="$((n2 - n1))" 'BEGIN { printf "%.1f", (b - a) / n }'; }

echo "| Scenario | Instructions / call | Mallocs / call |"
echo "|---|---:|---:|"
for s in "${scenarios[@]}"; do
    i1=$(instructions "$s" $n1); i2=$(instructions "$s" $n2)
    m1=$(mallocs "$s" $n1); m2=$(mallocs "$s" $n2)
    printf '| %s | %s | %s |\n' "$s" "$(per_call "$i1" "$i2")" "$(per_call "$m1" "$m2")"
done
