#!/usr/bin/env python3
"""`thumbforge serve` against thumbor, from the runs of Scripts/loadtest.sh, recorded as
Scripts/bench/results/serving.json (via record.py).

    serving.py [--record] NAME=RUNS.jsonl ...

Each RUNS.jsonl is what one `loadtest.sh` run wrote (bench-work/loadtest.jsonl, or
bench-work/loadtest-mastersN.jsonl with --masters N): a line per tool, mode (cold: every
request a new size; warm: 8 paths repeated, from the result caches) and concurrency, with
wrk's requests/s, p50 and p99 latency and errors, and the server's peak resident set. NAME
is the table it becomes (`four-photos`, `masters-200`). A serve row adds its ratios to
thumbor's row of the same mode and concurrency. Written to bench-work/results/ and compared
with the baseline, or made the baseline with --record.
"""
import argparse
import json
import os
import subprocess
import sys

import record

NOTES = {
    "four-photos": "the sample folder's four resort photos",
    "masters": "{n} distinct 1920×960 photos (`--masters {n}`), more than any cache of "
               "decoded masters holds",
}


def table(name, path):
    with open(path) as f:
        runs = [json.loads(line) for line in f if line.strip()]
    if not runs:
        sys.exit(f"serving.py: {path}: no runs")
    by = {(r["mode"], r["connections"], r["tool"]): r for r in runs if r["tool"] != "baseline"}
    rows = {}
    for (mode, connections, tool), run in sorted(by.items()):
        row = {"req/s": round(run["rps"]), "p50 ms": round(run["p50_ms"], 1),
               "p99 ms": round(run["p99_ms"], 1), "errors": run["errors"],
               "peak RSS MB": run["peak_rss_mb"]}
        other = by.get((mode, connections, "thumbor"))
        if tool == "serve" and other and other["rps"] > 0 and other["p99_ms"] > 0:
            row["req/s vs thumbor"] = f"{run['rps'] / other['rps']:.1f}×"
            row["p99 vs thumbor"] = f"{run['p99_ms'] / other['p99_ms']:.2f}×"
        rows[f"{mode}, {connections}, {tool}"] = row
    seconds = round(runs[0]["seconds"])
    what = (NOTES["masters"].format(n=name.split("-", 1)[1]) if name.startswith("masters-")
            else NOTES.get(name, name))
    note = f"{what}; wrk with 2 threads on the same machine, {seconds} s a run"
    return {"key": "mode, connections, tool", "rows": rows, "note": note}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("runs", nargs="+", metavar="NAME=RUNS.jsonl")
    args = parser.parse_args()
    tables = {}
    for spec in args.runs:
        name, _, path = spec.partition("=")
        tables[name] = table(name, os.path.abspath(path))
    thumbor = os.path.join(record.ROOT, "bench-work", "venv-thumbor", "bin", "pip")
    version = "thumbor"
    if os.path.exists(thumbor):
        shown = subprocess.run([thumbor, "show", "thumbor"], capture_output=True, text=True)
        version = next((line.split(": ", 1)[1] for line in shown.stdout.splitlines()
                        if line.startswith("Version: ")), "thumbor")
    binary = os.path.join(record.ROOT, ".build-bench", "release", "thumbforge")
    doc = record.document(
        "serving", "Serving",
        "Scripts/loadtest.sh [--masters N], then Scripts/bench/serving.py " +
        " ".join(f"{n}=RUNS" for n in tables),
        tables, parameters={"thumbor_processes": os.cpu_count()},
        about=record.info(thumbforge=binary if os.path.exists(binary) else None,
                          peers={"thumbor": f"{version} (Pillow, one process a core)"}))
    return record.finish(doc, args.record)


if __name__ == "__main__":
    sys.exit(main())
