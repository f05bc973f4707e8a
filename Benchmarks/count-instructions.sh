#!/usr/bin/env bash
# Instructions per operation, counted by valgrind's callgrind: exact and repeatable, whatever
# else the machine runs (times here move by up to 1.7x between runs; instruction counts do not).
#
#   bash Benchmarks/count-instructions.sh            # the core and its peers (NIO, OpenCombine,
#                                                    # the closure floor): one table
#   bash Benchmarks/count-instructions.sh --core     # the core only (builds without NIO)
#   bash Benchmarks/count-instructions.sh --check    # the instruction gate: the core only, each
#                                                    # scenario against Thresholds/instructions.txt
#   bash Benchmarks/count-instructions.sh --update   # the core only; rewrites the thresholds
#   bash Benchmarks/count-instructions.sh --stack    # the composer stack of benchmark 7: the
#                                                    # in-memory transport alone, the stack,
#                                                    # and each composer alone (not gated)
#
# Each scenario of Instructions/{Core,Peer}Instructions runs twice under
# `valgrind --tool=callgrind`, with N1 and N2 operations; instructions per operation are
# (I(N2) - I(N1)) / (N2 - N1), so that start-up, the runtime's first metadata look-ups and exit
# cancel. The programs are built in release mode and stripped first: valgrind cannot read
# Swift's debug information. valgrind is installed with apt-get when it is missing.
#
# The gate fails (exit status 2) when a core scenario takes more than its threshold plus
# TOLERANCE_PERCENT (default 3) per cent; exit status 1 means it could not build or count.
set -euo pipefail
cd "$(dirname "$0")"

mode=all
case "${1:-}" in
    "") ;;
    --core) mode=core ;;
    --check) mode=check ;;
    --update) mode=update ;;
    --stack) mode=stack ;;
    *) echo "usage: $0 [--core | --check | --update | --stack]" >&2; exit 1 ;;
esac
tolerance=${TOLERANCE_PERCENT:-3}
# The build directory, relative to Benchmarks/ (another one keeps a second checkout's builds apart).
scratch=${SCRATCH_PATH:-.build}
thresholds=Thresholds/instructions.txt

scenarios=(1-observe-resolve 2a-map-chain 2b-flatMap-chain 3-ten-observers 4-all-100)
peers=(NIO OpenCombine ClosureFloor)

# Operations counted: N1 and N2 per scenario (fewer for 4, whose operation is 100 futures).
operations() {
    case "$1" in
        4-all-100*) echo "100 600" ;;
        *) echo "1000 6000" ;;
    esac
}

if ! command -v valgrind > /dev/null; then
    echo "Installing valgrind (apt-get)..."
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind > /dev/null
fi

products=(CoreInstructions)
if [ "$mode" = all ]; then products+=(PeerInstructions); fi
if [ "$mode" = stack ]; then products=(StackInstructions); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for product in "${products[@]}"; do
    swift build -c release --scratch-path "$scratch" --product "$product" > "$work/build.log" 2>&1 || {
        cat "$work/build.log"
        echo "Instruction count: FAILED to build $product."
        exit 1
    }
    strip -o "$work/$product" "$scratch/release/$product"
done

# Instructions of one run: the total callgrind reports.
instructions_of_run() {
    local binary=$1 scenario=$2 count=$3 out="$work/callgrind.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" "$work/$binary" "$scenario" "$count" \
        > "$work/valgrind.log" 2>&1 || {
        cat "$work/valgrind.log" >&2
        return 1
    }
    awk '/^summary:/ { print $2 }' "$out"
}

# Instructions per operation of one scenario.
per_operation() {
    local binary=$1 scenario=$2 n1 n2 i1 i2
    read -r n1 n2 <<< "$(operations "$scenario")"
    i1=$(instructions_of_run "$binary" "$scenario" "$n1") || return 1
    i2=$(instructions_of_run "$binary" "$scenario" "$n2") || return 1
    echo $(((i2 - i1 + (n2 - n1) / 2) / (n2 - n1)))
}

if [ "$mode" = stack ]; then
    # Requests, not operations of the core: 1,000 and 6,000 through each transport.
    stack_scenarios=(bare stack composer-numbered composer-logged composer-metrics composer-validatingStatus
        composer-retry composer-timeout composer-authenticated composer-cached composer-deduplicated composer-throttled)
    echo "| Transport | Instructions / request | Added to the bare transport's |"
    echo "|---|---:|---:|"
    bare=""
    for scenario in "${stack_scenarios[@]}"; do
        count=$(per_operation StackInstructions "$scenario") || {
            echo "Instruction count: FAILED to run $scenario."
            exit 1
        }
        if [ -z "$bare" ]; then bare=$count; fi
        printf '| %s | %s | %s |\n' "$scenario" "$count" "$([ "$scenario" = bare ] && echo — || echo $((count - bare)))"
    done
    exit 0
fi

declare -A counted
for scenario in "${scenarios[@]}"; do
    counted[$scenario.Futures]=$(per_operation CoreInstructions "$scenario") || {
        echo "Instruction count: FAILED to run $scenario."
        exit 1
    }
    if [ "$mode" = all ]; then
        for peer in "${peers[@]}"; do
            counted[$scenario.$peer]=$(per_operation PeerInstructions "$scenario.$peer") || {
                echo "Instruction count: FAILED to run $scenario.$peer."
                exit 1
            }
        done
    fi
done

if [ "$mode" = all ]; then
    echo "| Scenario | Futures | NIO | OpenCombine | Closure floor | Futures ÷ NIO |"
    echo "|---|---:|---:|---:|---:|---:|"
    for scenario in "${scenarios[@]}"; do
        ours=${counted[$scenario.Futures]} nio=${counted[$scenario.NIO]}
        printf '| %s | %s | %s | %s | %s | %s |\n' "$scenario" "$ours" "$nio" \
            "${counted[$scenario.OpenCombine]}" "${counted[$scenario.ClosureFloor]}" \
            "$(awk -v a="$ours" -v b="$nio" 'BEGIN { printf "%.2f", a / b }')"
    done
    exit 0
fi

echo "| Scenario | Futures (instructions / op) | Threshold |"
echo "|---|---:|---:|"
for scenario in "${scenarios[@]}"; do
    limit=$(awk -v s="$scenario" '$1 == s { print $2 }' "$thresholds" 2> /dev/null || true)
    printf '| %s | %s | %s |\n' "$scenario" "${counted[$scenario.Futures]}" "${limit:-none}"
done

if [ "$mode" = update ]; then
    {
        echo "# Instructions per operation of the core scenarios (count-instructions.sh --update)."
        echo "# The gate (--check) fails when one exceeds its figure by more than TOLERANCE_PERCENT."
        for scenario in "${scenarios[@]}"; do
            echo "$scenario ${counted[$scenario.Futures]}"
        done
    } > "$thresholds"
    echo "Thresholds written to Benchmarks/$thresholds: commit them."
    exit 0
fi

if [ "$mode" = check ]; then
    if [ ! -f "$thresholds" ]; then
        echo "Instruction gate: no Benchmarks/$thresholds; write it with: bash Benchmarks/count-instructions.sh --update"
        exit 1
    fi
    worse=0 better=0
    for scenario in "${scenarios[@]}"; do
        count=${counted[$scenario.Futures]}
        limit=$(awk -v s="$scenario" '$1 == s { print $2 }' "$thresholds")
        if [ -z "$limit" ]; then
            echo "Instruction gate: no threshold for $scenario in Benchmarks/$thresholds."
            exit 1
        fi
        if [ $((count * 100)) -gt $((limit * (100 + tolerance))) ]; then
            echo "Instruction gate: $scenario takes $count instructions per operation, over $limit + $tolerance%."
            worse=1
        elif [ $((count * 100)) -lt $((limit * (100 - tolerance))) ]; then
            better=1
        fi
    done
    if [ "$worse" -ne 0 ]; then
        echo "Instruction gate: FAILED. After an intended change: bash Benchmarks/count-instructions.sh --update"
        exit 2
    fi
    if [ "$better" -ne 0 ]; then
        echo "Instruction gate: passed; some scenarios now take fewer instructions: lower the thresholds (--update)."
    else
        echo "Instruction gate: passed."
    fi
fi
