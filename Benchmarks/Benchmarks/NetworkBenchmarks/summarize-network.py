#!/usr/bin/env python3
"""Turns JMH exports of NetworkBenchmarks runs into the tables of README.md (7-9).

    swift package --disable-sandbox benchmark --target NetworkBenchmarks --no-progress --format jmh --path /tmp/net1
    swift package --disable-sandbox benchmark --target NetworkBenchmarks --no-progress --format jmh --path /tmp/net2
    python3 Benchmarks/NetworkBenchmarks/summarize-network.py /tmp/net1/Current_run.jmh.json /tmp/net2/Current_run.jmh.json

Per operation: the median wall-clock time (p50 of the iterations, divided by the operations in
one iteration) and the mean malloc count; with several runs, the median of the runs' figures,
and the figures of each run. Ratios and differences are taken run by run (both sides of a
comparison ran in the same run), then their median is shown.

- 7: one operation is one request (1,000 per iteration); "added" is ours minus the bare
  in-memory transport.
- 8: one operation is a batch of 1,000 requests; requests per second = 1,000 / median batch
  time; the ratio is ours / raw URLSession in throughput (raw time / our time), for the full
  stack and for `URLSession.request` without composers (SessionRequest).
- 9: one operation is one decoding of 100 products; the ratio is our time / JSONDecoder's.
- 11: one operation is one 100 MiB upload or download; time is the median per transfer, memory
  the process's peak resident memory over the benchmark's run (the p100 of the sampled peak,
  which only grows); the ratio is our time / raw URLSession's, the difference our peak minus
  raw URLSession's, both run by run.
"""
import json
import statistics
import sys

OPS_PER_ITERATION = {"7": 1_000, "8": 1, "9": 1, "11": 1}
BATCH = 1_000
TRANSFER_MIB = 100


def load_one(path):
    """name ("7-composer-stack.BareTransport") -> {median_ns, p90_ns, mallocs} per operation."""
    results = {}
    for element in json.load(open(path)):
        name = element["benchmark"].split(".", 3)[3]
        ops = OPS_PER_ITERATION[name.split("-")[0]]
        metrics = element["secondaryMetrics"]
        time = metrics["Time (wall clock)"]
        # JMH export: time in microseconds per iteration, counts raw per iteration.
        results[name] = {
            "median_ns": time["scorePercentiles"]["50.0"] * 1_000 / ops,
            "p90_ns": time["scorePercentiles"]["90.0"] * 1_000 / ops,
        }
        if "Malloc (total)" in metrics:
            results[name]["mallocs"] = metrics["Malloc (total)"]["score"] / ops
        if "Memory (resident peak)" in metrics:
            results[name]["peak_bytes"] = metrics["Memory (resident peak)"]["scorePercentiles"]["100.0"]
    return results


def time_text(ns):
    if ns >= 10_000_000:
        return f"{ns / 1_000_000:,.1f} ms"
    if ns >= 10_000:
        return f"{ns / 1_000:,.1f} µs"
    if ns >= 100:
        return f"{ns:,.0f} ns"
    return f"{ns:.1f} ns"


def per_run(runs, name, key):
    return [run[name][key] for run in runs if name in run]


def median(values):
    return statistics.median(values) if values else float("nan")


def spread(values, text):
    return ", ".join(text(value) for value in values)


def composer_table(runs):
    names = sorted({name for run in runs for name in run if name.startswith("7-")})
    bare = "7-composer-stack.BareTransport"
    stack = "7-composer-stack.FunctionalNetworking"
    first = [bare, stack, "7-composer-stack-nested.FunctionalNetworking", "7-composer-identity.FunctionalNetworking"]
    order = first + [name for name in names if name not in first]
    print("#### 7. The composer stack over an in-memory transport (one operation = one request)\n")
    print("| Benchmark | Median time / op | p90 time / op | Mallocs / op | Added time (− bare) | Added mallocs | Run medians |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in order:
        if name not in names:
            continue
        medians = per_run(runs, name, "median_ns")
        mallocs = median(per_run(runs, name, "mallocs"))
        if name == bare:
            added, added_mallocs = "—", "—"
        else:
            differences = [run[name]["median_ns"] - run[bare]["median_ns"] for run in runs if name in run and bare in run]
            added = f"{time_text(median(differences))} ({spread(differences, time_text)})"
            added_mallocs = f"{mallocs - median(per_run(runs, bare, 'mallocs')):+.1f}"
        print(
            f"| `{name}` | {time_text(median(medians))} | {time_text(median(per_run(runs, name, 'p90_ns')))} | "
            f"{mallocs:.1f} | {added} | {added_mallocs} | {spread(medians, time_text)} |"
        )
    print()


def loopback_table(runs):
    print("#### 8. 1,000 GETs over loopback (one operation = one batch of 1,000)\n")
    print(
        "| Benchmark | Median time / batch | p90 time / batch | Requests / s | Mallocs / request "
        "| Throughput: ours ÷ raw | Run medians |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for mode in ("sequential", "concurrent"):
        raw = f"8-loopback-{mode}-1000.URLSession"
        for name in (f"8-loopback-{mode}-1000.FunctionalNetworking", f"8-loopback-{mode}-1000.SessionRequest", raw):
            medians = per_run(runs, name, "median_ns")
            if not medians:
                continue
            if name != raw:
                ratios = [run[raw]["median_ns"] / run[name]["median_ns"] for run in runs if name in run and raw in run]
                ratio = f"{median(ratios):.3f} ({spread(ratios, lambda r: f'{r:.3f}')})"
            else:
                ratio = "—"
            rate = BATCH / (median(medians) / 1e9)
            print(
                f"| `{name}` | {time_text(median(medians))} | {time_text(median(per_run(runs, name, 'p90_ns')))} | "
                f"{rate:,.0f} | {median(per_run(runs, name, 'mallocs')) / BATCH:.1f} | {ratio} | {spread(medians, time_text)} |"
            )
    print()


def decoding_table(runs):
    ours = "9-decoded-100.FunctionalNetworking"
    raw = "9-decoded-100.JSONDecoder"
    print("#### 9. Decoding 100 products (one operation = one decoding)\n")
    print("| Benchmark | Median time / op | p90 time / op | Mallocs / op | Time: ours ÷ JSONDecoder | Run medians |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in (ours, raw):
        medians = per_run(runs, name, "median_ns")
        if not medians:
            continue
        if name == ours:
            ratios = [run[ours]["median_ns"] / run[raw]["median_ns"] for run in runs if ours in run and raw in run]
            ratio = f"{median(ratios):.3f} ({spread(ratios, lambda r: f'{r:.3f}')})"
        else:
            ratio = "—"
        print(
            f"| `{name}` | {time_text(median(medians))} | {time_text(median(per_run(runs, name, 'p90_ns')))} | "
            f"{median(per_run(runs, name, 'mallocs')):.1f} | {ratio} | {spread(medians, time_text)} |"
        )
    print()


def mib_text(size):
    return f"{size / 1_048_576:,.0f} MiB"


def transfer_table(runs):
    print("#### 11. 100 MiB over loopback (one operation = one transfer)\n")
    print(
        "| Benchmark | Median time | p90 time | MiB/s | Peak resident memory | Time: ours ÷ raw "
        "| Peak: ours − raw | Run medians | Run peaks |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for direction, raw in (("upload", "URLSession"), ("download", "URLSession")):
        raw_name = f"11-{direction}-{TRANSFER_MIB}MiB.{raw}"
        names = [f"11-{direction}-{TRANSFER_MIB}MiB.FunctionalNetworking", raw_name]
        if direction == "download":
            names.append(f"11-{direction}-{TRANSFER_MIB}MiB.URLSessionData")
        for name in names:
            medians = per_run(runs, name, "median_ns")
            if not medians:
                continue
            peaks = per_run(runs, name, "peak_bytes")
            if name != raw_name:
                pairs = [run for run in runs if name in run and raw_name in run]
                ratios = [run[name]["median_ns"] / run[raw_name]["median_ns"] for run in pairs]
                differences = [run[name]["peak_bytes"] - run[raw_name]["peak_bytes"] for run in pairs]
                ratio = f"{median(ratios):.2f} ({spread(ratios, lambda r: f'{r:.2f}')})"
                difference = f"{median(differences) / 1_048_576:+,.0f} MiB ({spread(differences, lambda d: f'{d / 1_048_576:+,.0f}')})"
            else:
                ratio, difference = "—", "—"
            rate = TRANSFER_MIB / (median(medians) / 1e9)
            print(
                f"| `{name}` | {time_text(median(medians))} | {time_text(median(per_run(runs, name, 'p90_ns')))} | "
                f"{rate:,.0f} | {mib_text(median(peaks))} | {ratio} | {difference} | {spread(medians, time_text)} | "
                f"{spread(peaks, mib_text)} |"
            )
    print()


def main(paths):
    runs = [load_one(path) for path in paths]
    if any(name.startswith("7-") for run in runs for name in run):
        composer_table(runs)
    if any(name.startswith("8-") for run in runs for name in run):
        loopback_table(runs)
    if any(name.startswith("9-") for run in runs for name in run):
        decoding_table(runs)
    if any(name.startswith("11-") for run in runs for name in run):
        transfer_table(runs)


if __name__ == "__main__":
    main(sys.argv[1:] or ["Current_run.jmh.json"])
