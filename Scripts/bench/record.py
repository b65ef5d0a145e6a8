#!/usr/bin/env python3
"""Benchmark result files: one JSON file per workload, written by every benchmark that feeds
a table of docs/performance.md. A run writes bench-work/results/WORKLOAD.json; the checked-in
baseline is Scripts/bench/results/WORKLOAD.json, and the page is generated from the baselines
(performance_page.py).

    record.py compare NEW.json [BASELINE.json]   a run against the baseline (exit 1: regressed)
    record.py record NEW.json                    make a run the baseline
    record.py info OUT.json --thumbforge BIN [--peer NAME=VERSION ...]   machine and tools

A file holds: workload, title, command (how to reproduce it), machine, tools, measured_at,
provenance, parameters (what must match for two runs to be compared), optionally conditions
(bench.sh: the load averages at the run's start and end) and tables: each a
`key` (the first column's header), `rows` {row: {column: cell}} and an optional `note`. A
cell is a number, a string, a [low, high] range, or a measured figure: {"value", "reps"
(every repetition's value), "noise", "gate"}.

Noise of a figure: (highest − lowest) ÷ median of its repetitions. The compare rule, for
every gated figure (ThumbForge ÷ a peer, or ThumbForge's own time where there is no peer;
lower is better): the run regresses when its value exceeds the baseline's by more than the
larger of the two runs' noise, value > baseline × (1 + max(noise, baseline noise)). A figure
with fewer than 3 repetitions in either run is not judged.
"""
import argparse
import datetime
import functools
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASELINES = os.path.join(ROOT, "Scripts", "bench", "results")
RUNS = os.path.join(ROOT, "bench-work", "results")
MIN_REPS = 3
# The CPU features ThumbForge's resampler chooses its passes by (Sources/CResample).
FLAGS = ("avx2", "avx512f", "avx512bw", "avx512_vnni", "avx512vbmi", "avx512_vp2intersect")


def _out(*command, cwd=None):
    try:
        run = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    except OSError:
        return None
    return run.stdout.strip() if run.returncode == 0 else None


def _first(path, prefix):
    try:
        with open(path) as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith(prefix)), None)
    except OSError:
        return None


@functools.cache
def machine():
    """CPU model, cores, memory, OS and the CPU flags that choose code paths."""
    flags = (_first("/proc/cpuinfo", "flags") or "").split()
    mem = _first("/proc/meminfo", "MemTotal") or "0 kB"
    pretty = None
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            pretty = next((line.split("=", 1)[1].strip().strip('"') for line in f
                           if line.startswith("PRETTY_NAME=")), None)
    return {
        "cpu": _first("/proc/cpuinfo", "model name") or platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "memory_gib": round(int(mem.split()[0]) / 2**20),
        "os": f"{pretty or platform.system()}, kernel {platform.release()}",
        "cpu_flags": [f for f in FLAGS if f in flags],
    }


@functools.cache
def _base_tools():
    vips = _out("vips", "--version") or _out("pkg-config", "--modversion", "vips")
    swift = _out("swift", "--version")
    dirty = _out("git", "status", "--porcelain", "--", "Sources", "Package.swift", "Package.resolved",
                 cwd=ROOT)
    return {
        "thumbforge_commit": _out("git", "rev-parse", "HEAD", cwd=ROOT),
        "thumbforge_sources_modified": bool(dirty) if dirty is not None else None,
        "libvips": vips.replace("vips-", "") if vips else None,
        "swift": swift.splitlines()[0] if swift else None,
        "python": platform.python_version(),
    }


def tools(thumbforge=None, peers=None):
    """ThumbForge's version (from the binary) and commit, libvips, Swift, Python, the peers."""
    found = {"thumbforge": _out(thumbforge, "--version") if thumbforge else None}
    found.update(_base_tools())
    found["peers"] = dict(peers or {})
    return found


def spread(reps):
    """(highest − lowest) ÷ median: the noise of a figure's repetitions (None under 2)."""
    if len(reps) < 2 or statistics.median(reps) == 0:
        return None
    return round((max(reps) - min(reps)) / statistics.median(reps), 3)


def sig(x, digits=3):
    """x rounded to `digits` significant digits (ints stay ints)."""
    if isinstance(x, int) or x == 0:
        return x
    return float(f"{x:.{digits}g}")


def figure(reps, gate=False, of=statistics.median, digits=4):
    """A measured cell: the median (or `of`) of the repetitions, each kept, and their noise."""
    cell = {"value": sig(of(reps), digits), "reps": [sig(r, digits + 1) for r in reps], "noise": spread(reps)}
    if gate:
        cell["gate"] = True
    return cell


def interval(reps, confidence=0.98):
    """(low, high): order statistics holding the median with `confidence` (the range when
    there are too few repetitions for any to: see `holds`)."""
    k = order_statistic(len(reps), confidence)
    ordered, n = sorted(reps), len(reps)
    return ordered[k - 1] if k else ordered[0], ordered[n - k] if k else ordered[-1]


def order_statistic(n, confidence):
    """The largest k whose k-th lowest and k-th highest of n repetitions hold the median with
    `confidence` (P(Binomial(n, 1/2) <= k - 1) <= (1 - confidence) / 2); 0 when none do."""
    tail, k = (1 - confidence) / 2, 0
    while sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n <= tail:
        k += 1
    return k


def ratio_figure(reps, digits=3):
    """A ratio's median with its interval; `digits` 4 for instruction counts, which move by
    less than a timing's noise."""
    cell = figure(reps, digits=digits)
    low, high = interval(reps)
    cell["low"], cell["high"] = sig(low, digits), sig(high, digits)
    return cell


def corpus_options(parser, help, metavar="NAME=FOLDER"):
    """The options of a benchmark measured per corpus: the binary, each corpus (`help` says
    what is done with it), and --record."""
    parser.add_argument("--thumbforge", metavar="BIN", required=True,
                        help="the thumbforge binary to run")
    parser.add_argument("--corpus", action="append", required=True, metavar=metavar,
                        help=help + " (repeatable)")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")


def corpora(specs):
    """Each --corpus NAME=REST as (NAME, REST)."""
    return [tuple(spec.partition("=")[::2]) for spec in specs]


def corpus_command(script, specs, extra=""):
    """The command a per-corpus benchmark's result records: the script, BIN for the binary,
    each --corpus as given, then `extra`."""
    return f"Scripts/bench/{script} --thumbforge BIN " + " ".join(
        f"--corpus {spec}" for spec in specs) + extra


def info(thumbforge=None, peers=None):
    """The machine and the tools, as a result file records them."""
    return {"machine": machine(), "tools": tools(thumbforge, peers)}


def document(workload, title, command, tables, parameters=None, about=None):
    """A result file's contents; `about`: info() (gathered now when not given)."""
    about = about or info()
    return {
        "workload": workload, "title": title, "command": command,
        "provenance": "measured",
        "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": about["machine"], "tools": about["tools"],
        "parameters": parameters or {}, "tables": tables,
    }


def write(doc, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


def load(path):
    with open(path) as f:
        return json.load(f)


def gated(doc):
    """Every gated figure of a result: {(table, row, column): cell}."""
    return {(t, r, c): cell for t, table in doc["tables"].items() for r, row in table["rows"].items()
            for c, cell in row.items() if isinstance(cell, dict) and cell.get("gate")}


def compare(new, base):
    """Lines saying how each gated figure of `new` stands against `base`, and the regressions."""
    if new.get("parameters") != base.get("parameters"):
        return [f"not compared: the baseline's parameters {base.get('parameters')} differ from "
                f"this run's {new.get('parameters')}"], 0
    lines, regressed = [], 0
    old = gated(base)
    for key, cell in gated(new).items():
        name = " / ".join(key)
        if key not in old:
            lines.append(f"new       {name}: {cell['value']} (no baseline figure)")
            continue
        was = old[key]
        if min(len(cell["reps"]), len(was["reps"])) < MIN_REPS:
            lines.append(f"unjudged  {name}: {cell['value']} vs {was['value']} "
                         f"(fewer than {MIN_REPS} repetitions)")
            continue
        noise = max(cell["noise"] or 0, was["noise"] or 0)
        change = cell["value"] / was["value"] - 1
        if cell["value"] > was["value"] * (1 + noise):
            regressed += 1
            lines.append(f"REGRESSED {name}: {cell['value']} vs baseline {was['value']} "
                         f"({change:+.1%}, beyond the noise of {noise:.1%})")
        else:
            lines.append(f"ok        {name}: {cell['value']} vs {was['value']} "
                         f"({change:+.1%}, noise {noise:.1%})")
    return lines, regressed


def compare_files(new_path, base_path=None):
    """Prints the comparison; returns the exit status (1 when a figure regressed)."""
    new = load(new_path)
    base_path = base_path or os.path.join(BASELINES, f"{new['workload']}.json")
    if not os.path.exists(base_path):
        print(f"{new['workload']}: no baseline {os.path.relpath(base_path, ROOT)}; record one with --record")
        return 0
    lines, regressed = compare(new, load(base_path))
    print(f"{new['workload']}: this run against {os.path.relpath(base_path, ROOT)}")
    for line in lines:
        print("  " + line)
    if regressed:
        print(f"{new['workload']}: {regressed} figure(s) regressed beyond the noise")
    return 1 if regressed else 0


def record(new_path):
    doc = load(new_path)
    target = os.path.join(BASELINES, f"{doc['workload']}.json")
    shutil.copyfile(new_path, target)
    print(f"{doc['workload']}: recorded as the baseline ({os.path.relpath(target, ROOT)}); "
          "regenerate the page: Scripts/bench/performance_page.py")


def finish(doc, keep):
    """What a benchmark does with its result: write it to bench-work/results/, then either make
    it the baseline (`keep`) or compare it with the baseline. Returns the exit status."""
    path = os.path.join(RUNS, f"{doc['workload']}.json")
    write(doc, path)
    print(f"{doc['workload']}: written to {os.path.relpath(path, ROOT)}")
    if keep:
        record(path)
        return 0
    return compare_files(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("compare")
    c.add_argument("new")
    c.add_argument("baseline", nargs="?")
    r = sub.add_parser("record")
    r.add_argument("new")
    i = sub.add_parser("info")
    i.add_argument("out")
    i.add_argument("--thumbforge")
    i.add_argument("--peer", action="append", default=[], help="NAME=VERSION")
    args = parser.parse_args()
    if args.what == "compare":
        sys.exit(compare_files(args.new, args.baseline))
    if args.what == "record":
        record(args.new)
    else:
        write(info(args.thumbforge, dict(p.split("=", 1) for p in args.peer)), args.out)


if __name__ == "__main__":
    main()
