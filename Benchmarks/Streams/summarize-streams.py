#!/usr/bin/env python3
"""Turns runs of StreamBenchmarks into the tables of README.md (12. Streams).

    cd Benchmarks
    swift package --disable-sandbox benchmark --target StreamBenchmarks --no-progress \\
        --format histogramPercentiles --path /tmp/streams1
    (… /tmp/streams2, /tmp/streams3)
    python3 Streams/summarize-streams.py /tmp/streams1 /tmp/streams2 /tmp/streams3

Each run folder holds one TSV per benchmark and metric (percentiles 0-100). Per benchmark and
run: the median time of one operation (one pass over 100,000 events), the median malloc count
of one operation and, for the stream benchmarks, the peak resident memory of the benchmark's
process. Rates and ratios are taken run by run, then their median and range are shown.
"""
import glob
import os
import statistics
import sys

EVENTS = 100_000
MEBIBYTE = 1_048_576


def percentile(path, wanted):
    with open(path) as tsv:
        next(tsv)
        for line in tsv:
            percent, value = line.split("\t")
            if int(percent) == wanted:
                return float(value)
    raise ValueError(f"no percentile {wanted} in {path}")


def load(folder):
    """name ("12-parser-10MB.Splitter") -> {"us": median µs, "mallocs": median, "peak": bytes}."""
    results = {}
    for path in glob.glob(os.path.join(folder, "*.histogram.percentiles.tsv")):
        base = os.path.basename(path)[: -len(".histogram.percentiles.tsv")]
        # Current_run.StreamBenchmarks.<name with one dot>.<metric>
        parts = base.split(".")
        name, metric = ".".join(parts[2:-1]), parts[-1]
        entry = results.setdefault(name, {})
        if metric == "wallClock":
            entry["us"] = percentile(path, 50)
        elif metric == "mallocCountTotal":
            entry["mallocs"] = percentile(path, 50)
        elif metric == "peakMemoryResident":
            entry["peak"] = percentile(path, 100)
    return results


def spread(values, text):
    if not values:
        return "—"
    return f"{text(statistics.median(values))} ({text(min(values))}–{text(max(values))})"


def grouped(value):
    return f"{value:,.0f}"


def ratio(value):
    return f"{value:.2f}"


def main(folders):
    runs = [load(folder) for folder in folders]
    names = sorted({name for run in runs for name in run})

    print(f"Parsers: 10 MB ({EVENTS:,} events of 100 bytes) in 16 KiB chunks, one pass per operation; "
          f"{len(runs)} runs")
    print()
    print("| Benchmark | Events/s, median (range) | Time ÷ ours | Allocations / event |")
    print("|---|---:|---:|---:|")
    ours = "12-parser-10MB.FunctionalNetworking"
    for name in [n for n in names if n.startswith("12-parser")]:
        rates = [EVENTS / (run[name]["us"] / 1e6) for run in runs if name in run]
        ratios = [run[name]["us"] / run[ours]["us"] for run in runs if name in run and ours in run]
        mallocs = [run[name]["mallocs"] / EVENTS for run in runs if name in run]
        print(f"| `{name}` | {spread(rates, grouped)} | {spread(ratios, ratio)} | {statistics.median(mallocs):.2f} |")

    print()
    print(f"Streams: {EVENTS:,} events from a LoopbackServer in the same process, one read per operation, "
          f"each benchmark in a process of its own; {len(runs)} runs")
    print()
    print("| Benchmark | Events/s, median (range) | Allocations / event | Peak resident memory, median (range) |")
    print("|---|---:|---:|---:|")
    for name in [n for n in names if n.startswith("12-stream")]:
        rates = [EVENTS / (run[name]["us"] / 1e6) for run in runs if name in run]
        mallocs = [run[name]["mallocs"] / EVENTS for run in runs if name in run]
        peaks = [run[name]["peak"] / MEBIBYTE for run in runs if name in run and "peak" in run[name]]
        print(f"| `{name}` | {spread(rates, grouped)} | {statistics.median(mallocs):.2f} | "
              f"{spread(peaks, lambda v: f'{v:.0f} MiB')} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
