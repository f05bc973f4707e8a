#!/usr/bin/env python3
"""Turns JMH exports of benchmark runs into the Markdown tables of README.md.

    swift package --disable-sandbox benchmark --no-progress --format jmh --path /tmp/run1
    swift package --disable-sandbox benchmark --no-progress --format jmh --path /tmp/run2
    python3 summarize.py /tmp/run1/Current_run.jmh.json /tmp/run2/Current_run.jmh.json
    bash count-instructions.sh > /tmp/instructions.md     # optional: an instructions column
    python3 summarize.py --instructions /tmp/instructions.md /tmp/run*/Current_run.jmh.json

Per operation: the median wall-clock time (p50 of the iterations, divided by the operations
in one iteration; with several runs, the median of the runs' medians) and the mean malloc
count (the raw count of all iterations divided by the operations they ran, which is exact up
to the odd allocation of another thread). Ratios compare this package ("Futures") with each
peer of the same scenario: time ratio = ours / peer's, so below 1.0 means we are faster.
"""
import json
import math
import statistics
import sys

# Operations per iteration, by scenario; mirrors the scalingFactor in the benchmarks.
OPS_PER_ITERATION = {"4-all-1000": 1}
DEFAULT_OPS = 1_000

SCENARIOS = {
    "0-empty-loop": "0. Empty loop (framework overhead per operation)",
    "1-observe-resolve": "1. Promise, observe, resolve (one thread)",
    "2a-map-chain": "2a. Chain of 10 maps, observed, resolved",
    "2b-flatMap-chain": "2b. Chain of 10 flatMaps (each to a completed future)",
    "3-ten-observers": "3. One future, 10 observers",
    "4-all-1000": "4. all over 1,000 pending futures (one operation = one all)",
    "5a-await-completed": "5a. await a completed future",
    "5b-await-pending": "5b. await a pending future (resolved by a later job)",
    "6-cross-thread": "6. Resolve on one thread, observe on the other",
}

PEER_NAMES = {
    "Futures": "**Futures (ours)**",
    "NIO": "NIO EventLoopFuture",
    "OpenCombine": "OpenCombine Future",
    "UnsafeContinuation": "withUnsafeContinuation",
    "CheckedContinuation": "withCheckedContinuation",
    "ClosureFloor": "closure floor",
}


def load(paths):
    """scenario -> implementation -> per-run figures, with the medians across runs."""
    runs = [load_one(path) for path in paths]
    results = {}
    for scenario in runs[0]:
        for implementation in runs[0][scenario]:
            figures = [run[scenario][implementation] for run in runs if implementation in run.get(scenario, {})]
            results.setdefault(scenario, {})[implementation] = {
                "median_ns": statistics.median(f["median_ns"] for f in figures),
                "p90_ns": statistics.median(f["p90_ns"] for f in figures),
                "mallocs": statistics.median(f["mallocs"] for f in figures),
            "ops": figures[0]["ops"],
                "run_medians": [f["median_ns"] for f in figures],
            }
    return results


def load_one(path):
    results = {}
    for element in json.load(open(path)):
        # package.benchmark.<Target>.<scenario>.<implementation>
        name = element["benchmark"].split(".", 3)[3]
        scenario, implementation = name.rsplit(".", 1)
        ops = OPS_PER_ITERATION.get(scenario, DEFAULT_OPS)
        metrics = element["secondaryMetrics"]
        time = metrics["Time (wall clock)"]
        mallocs = metrics["Malloc (total)"]
        # JMH export: time in microseconds per iteration, counts raw per iteration.
        results.setdefault(scenario, {})[implementation] = {
            "median_ns": time["scorePercentiles"]["50.0"] * 1_000 / ops,
            "p90_ns": time["scorePercentiles"]["90.0"] * 1_000 / ops,
            "mallocs": mallocs["score"] / ops,
            "ops": ops,
        }
    return results


# The columns of count-instructions.sh's table, by implementation.
INSTRUCTION_COLUMNS = {"Futures": 1, "NIO": 2, "OpenCombine": 3, "ClosureFloor": 4}


def load_instructions(path):
    """scenario -> implementation -> instructions per operation, from count-instructions.sh."""
    counts = {}
    for line in open(path):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not cells[1].isdigit():
            continue
        for implementation, column in INSTRUCTION_COLUMNS.items():
            counts.setdefault(cells[0], {})[implementation] = int(cells[column])
    return counts


def time_text(ns):
    if ns >= 10_000:
        return f"{ns / 1_000:,.1f} µs"
    if ns >= 100:
        return f"{ns:,.0f} ns"
    return f"{ns:.1f} ns"


def mallocs_text(count, ops):
    """An integer when the mean is one within the histogram's resolution.

    The framework keeps its samples in an HDR histogram with 3 significant digits: raw
    counts of 2,048 and more are rounded to buckets of 2^(log2(count) - 10), so a mean of
    83,000 mallocs per iteration can read 82,980 (82.98 per operation).
    """
    raw = count * ops
    resolution = 1 if raw < 2_048 else 2 ** (int(math.log2(raw)) - 10)
    if abs(count - round(count)) <= max(resolution / ops, 0.005):
        return f"{round(count)}"
    return f"{count:.2f}"


def main(arguments):
    instructions = {}
    if arguments[:1] == ["--instructions"]:
        instructions = load_instructions(arguments[1])
        arguments = arguments[2:]
    paths = arguments or ["Current_run.jmh.json"]
    results = load(paths)
    runs = len(paths)
    order = list(PEER_NAMES)
    for scenario, title in SCENARIOS.items():
        implementations = results.get(scenario)
        if not implementations:
            continue
        ours = implementations.get("Futures")
        print(f"#### {title}\n")
        counted = instructions.get(scenario, {})
        spread = " | Run medians" if runs > 1 else ""
        counts = " Instructions / op |" if counted else ""
        print(f"| Implementation |{counts} Median time / op | p90 time / op | Mallocs / op | Time: ours ÷ this | Mallocs: ours − this{spread} |")
        print("|---|" + ("---:|" if counted else "") + "---:|---:|---:|---:|---:|" + ("---:|" if runs > 1 else ""))
        for implementation in sorted(implementations, key=lambda name: order.index(name) if name in order else 99):
            row = implementations[implementation]
            label = PEER_NAMES.get(implementation, implementation)
            if ours and implementation != "Futures":
                ratio = f"{ours['median_ns'] / row['median_ns']:.2f}"
                ours_text = mallocs_text(ours["mallocs"], ours["ops"])
                this_text = mallocs_text(row["mallocs"], row["ops"])
                if "." in ours_text or "." in this_text:
                    delta = f"{ours['mallocs'] - row['mallocs']:+.2f}"
                else:
                    delta = f"{int(ours_text) - int(this_text):+d}"
            else:
                ratio, delta = "—", "—"
            spread = " | " + ", ".join(time_text(t) for t in row["run_medians"]) if runs > 1 else ""
            count = f" {counted[implementation]:,} |" if implementation in counted else (" — |" if counted else "")
            print(
                f"| {label} |{count} {time_text(row['median_ns'])} | {time_text(row['p90_ns'])} | "
                f"{mallocs_text(row['mallocs'], row['ops'])} | {ratio} | {delta}{spread} |"
            )
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
