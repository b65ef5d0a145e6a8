#!/usr/bin/env python3
"""What each speed mechanism gains: paired runs of one thumbforge binary with and without
each mechanism, recorded as Scripts/bench/results/mechanisms.json (via record.py).

    mechanisms.py [--runs N] --binary BIN --base COMMIT [--record] --workload NAME=CORPUS[:MODE] ... KNOB...

BIN must be built from COMMIT with the A/B switches applied (`git apply
Scripts/bench/ab-switches.patch`; they never land on main): `THUMBFORGE_AB_OFF=KNOB` turns one mechanism off, falling back to the plain path.
MODE is `full` (a build into an empty catalog, the default) or `rebuild` (a no-change build
of a catalog built once beforehand). Each round runs, for every knob in a shuffled order,
the binary with every mechanism on and with the knob, back to back (which first alternates
from round to round), so each pair sees the same machine; a knob's figure
is the median over rounds of (time with the knob off ÷ time with it on), for wall and for
CPU (user + system) time, with its noise ((highest − lowest) ÷ median). A ratio above 1
means the mechanism saves time. The rule of docs/performance.md: a mechanism that gains
under 2 % on every workload is removed.
"""
import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time

import record

ROOT = record.ROOT
WORK = os.path.join(ROOT, "bench-work", "runs", "mechanisms")


def timed(binary, knob, corpus, out, mode):
    """One build: (wall s, CPU s). `knob` None runs with every mechanism on."""
    env = dict(os.environ)
    env.pop("THUMBFORGE_AB_OFF", None)
    if knob:
        env["THUMBFORGE_AB_OFF"] = knob
    if mode == "full":
        shutil.rmtree(out, ignore_errors=True)
    command = [binary, "build", corpus, "-q", "-o", os.path.join(out, "Assets.xcassets")]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the builds run one at a time
    if result.returncode != 0:
        sys.exit(f"mechanisms.py: {knob or 'all on'}: {' '.join(command)}: "
                 f"{result.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("--seed", type=int, default=1, help="the knobs' order in each round")
    parser.add_argument("--base", required=True, metavar="COMMIT",
                        help="the commit the switches patch was applied to, to build BIN")
    parser.add_argument("--workload", action="append", required=True, metavar="NAME=CORPUS[:MODE]")
    parser.add_argument("knobs", nargs="+", metavar="KNOB")
    args = parser.parse_args()
    knobs, specs = args.knobs, args.workload
    workloads = []
    for spec in specs:
        name, rest = spec.split("=", 1)
        corpus, _, mode = rest.partition(":")
        workloads.append((name, os.path.abspath(corpus), mode or "full"))
    binary = os.path.abspath(args.binary)
    rng = random.Random(args.seed)
    ratios = {(w, k): {"wall": [], "cpu": []} for w, _, _ in workloads for k in knobs}
    base = {w: {"wall": [], "cpu": []} for w, _, _ in workloads}
    for name, corpus, mode in workloads:
        if mode == "rebuild":  # the catalog each no-change run compares with
            for knob in [None] + knobs:
                timed(binary, knob, corpus, os.path.join(WORK, name, knob or "on"), "full")
    for round_ in range(args.runs):
        order = list(knobs)
        rng.shuffle(order)
        for name, corpus, mode in workloads:
            for knob in order:
                pair = [None, knob] if round_ % 2 == 0 else [knob, None]
                times = {k: timed(binary, k, corpus, os.path.join(WORK, name, k or "on"), mode)
                         for k in pair}
                on, off = times[None], times[knob]
                base[name]["wall"].append(on[0])
                base[name]["cpu"].append(on[1])
                ratios[(name, knob)]["wall"].append(off[0] / on[0])
                ratios[(name, knob)]["cpu"].append(off[1] / on[1])
        print(f"round {round_ + 1}/{args.runs} done", file=sys.stderr)

    rows = {}
    for knob in knobs:
        row = {}
        for name, _, _ in workloads:
            cell = ratios[(name, knob)]
            row[f"{name} wall"] = record.figure(cell["wall"], digits=3)
            row[f"{name} CPU"] = record.figure(cell["cpu"], digits=3)
        gains = [row[f"{n} {t}"]["value"] for n, _, _ in workloads for t in ("wall", "CPU")]
        row["pays"] = "yes" if max(gains) >= 1.02 else "no"
        rows[knob] = row
    base_row = {}
    for name, _, _ in workloads:
        base_row[f"{name} wall"] = record.figure(base[name]["wall"], digits=3)
        base_row[f"{name} CPU"] = record.figure(base[name]["cpu"], digits=3)
    table = {
        "key": "mechanism off",
        "rows": rows,
        "note": "time with the mechanism off ÷ time with it on, median of paired runs "
        "(above 1: the mechanism saves time); `pays`: at least 1.02 on some workload",
    }
    baseline = {"key": "all mechanisms on", "rows": {"seconds": base_row}}
    about = record.info(thumbforge=binary)
    # The binary is the base commit with the switches, not this checkout's sources.
    about["tools"]["thumbforge_commit"] = args.base
    about["tools"]["thumbforge_sources_modified"] = "Scripts/bench/ab-switches.patch applied"
    described = ", ".join(f"{n} ({os.path.basename(c)}, {m})" for n, c, m in workloads)
    doc = record.document(
        "mechanisms",
        "What each speed mechanism gains",
        "Scripts/bench/mechanisms.py --runs %d --binary BIN --base %s %s %s"
        % (args.runs, args.base, " ".join(f"--workload {s}" for s in specs), " ".join(knobs)),
        {"mechanisms": table, "baseline": baseline},
        parameters={"workloads": described, "runs": args.runs},
        about=about,
    )
    path = os.path.join(record.RUNS, "mechanisms.json")
    record.write(doc, path)
    for knob in knobs:
        cells = "  ".join(
            f"{k} {v['value']:.3f} (±{(v['noise'] or 0) * 100:.0f} %)"
            for k, v in rows[knob].items() if isinstance(v, dict))
        print(f"{knob:20} {cells}  pays: {rows[knob]['pays']}")
    if args.record:
        record.record(path)


if __name__ == "__main__":
    main()
